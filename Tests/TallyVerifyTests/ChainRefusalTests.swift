import Foundation
import TallyCore
import Testing
@testable import TallyVerify

/// The cheapest checks first, and refused chains remembered by their bytes (issue 27 item 8: a forged chain cost
/// 0.71 ms of CPU per notification body).
@Suite struct ChainRefusalTests {
    @Test func aRefusedChainIsRememberedByItsBytesWhileEachJWSIsStillChecked() throws {
        let verifier = try JWSTestPKI.verifier()
        let forger = try JWSTestPKI.signer(leaf: "other-leaf", intermediate: "other-intermediate", root: "other-root")
        let first = try #require(forger.sign(JWSTestPKI.transaction()))
        let failure = try #require(verifier.verifyTransaction(first).failure)
        #expect(verifier.rememberedRefusalCount == 1)
        var other = JWSTestPKI.transaction()
        other.quantity = 9
        let second = try #require(forger.sign(other))
        #expect(second != first)
        #expect(verifier.verifyTransaction(second).failure == failure, "the same chain, another JWS: the same refusal")
        #expect(verifier.rememberedRefusalCount == 1)
        let genuine = try #require(try JWSTestPKI.signer().sign(JWSTestPKI.transaction()))
        #expect(verifier.verifyTransaction(genuine).failure == nil, "the trusted chain is not affected")
    }

    @Test func aRefusalAboutDatesIsNotRemembered() throws {
        let verifier = try JWSTestPKI.verifier()
        let signer = try JWSTestPKI.signer()
        let late = try #require(signer.sign(JWSTestPKI.transaction(signedDate: JWSTestPKI.afterLeafExpiry)))
        #expect(verifier.verifyTransaction(late).failure != nil, "signed after the leaf expired")
        #expect(verifier.rememberedRefusalCount == 0)
        let onTime = try #require(signer.sign(JWSTestPKI.transaction()))
        #expect(verifier.verifyTransaction(onTime).failure == nil, "the same chain at a date it is valid")
    }

    @Test func aShortChainFailsBeforeThePayloadIsRead() throws {
        let header = Base64URL.encode(Array(#"{"alg":"ES256","x5c":["AAAA"]}"#.utf8))
        let jws = header + "." + Base64URL.encode(Array("not JSON at all".utf8)) + ".AAAA"
        let failure = try #require(try JWSTestPKI.verifier().verifyNotification(jws).failure)
        #expect(failure.reason == .invalidChainLength, "\(failure)")
    }
}
