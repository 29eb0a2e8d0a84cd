import Dispatch
import Foundation
import TallyCore
import Testing
@testable import TallyVerify

/// Hostile or broken JWS: each is rejected with its reason, never a crash.
@Suite struct AdversarialJWSTests {
    static func validJWS(signedDate: Date = JWSTestPKI.validDate) throws -> String {
        try #require(try JWSTestPKI.signer().sign(JWSTestPKI.transaction(signedDate: signedDate)))
    }

    static func parts(_ jws: String) -> [String] { jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init) }

    static func header(alg: String?, x5c: [Certificate]) -> String {
        var fields: [String] = []
        if let alg { fields.append("\"alg\":\"\(alg)\"") }
        fields.append("\"x5c\":[" + x5c.map { "\"\(Data($0.der).base64EncodedString())\"" }.joined(separator: ",") + "]")
        return "{" + fields.joined(separator: ",") + "}"
    }

    static func chain() throws -> [Certificate] {
        [try JWSTestPKI.certificate("leaf"), try JWSTestPKI.certificate("intermediate"), try JWSTestPKI.certificate("root")]
    }

    static func expect(_ jws: String, _ reason: VerificationFailure.Reason, detail: String? = nil,
                       verifier: SignedDataVerifier? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws
    {
        let result = try (verifier ?? JWSTestPKI.verifier()).verifyTransaction(jws)
        let failure = result.failure
        #expect(failure?.reason == reason, "\(String(describing: result))", sourceLocation: sourceLocation)
        if let detail {
            #expect(failure?.detail.contains(detail) == true, "\(failure?.detail ?? "no failure")", sourceLocation: sourceLocation)
        }
    }

    @Test func validBaselineVerifies() throws {
        #expect(try JWSTestPKI.verifier().verifyTransaction(try Self.validJWS()).value != nil)
    }

    @Test func algNoneIsRejected() throws {
        let parts = Self.parts(try Self.validJWS())
        let header = Base64URL.encode(Array(Self.header(alg: "none", x5c: try Self.chain()).utf8))
        try Self.expect("\(header).\(parts[1]).", .verificationFailure)
        try Self.expect("\(header).\(parts[1]).\(parts[2])", .verificationFailure, detail: "only ES256")
    }

    @Test(arguments: [#""crit":["exp"]"#, #""crit":[]"#, #""crit":null"#, #""crit":"b64""#])
    func critHeaderIsRejectedEvenForAKnownChain(_ crit: String) throws {
        let verifier = try JWSTestPKI.verifier()
        // The same chain verified first (so it is cached) must not let a header with crit through.
        #expect(verifier.verifyTransaction(try Self.validJWS()).value != nil)
        let chain = try Self.chain()
        let header = "{\"alg\":\"ES256\",\(crit),\"x5c\":["
            + chain.map { "\"\(Data($0.der).base64EncodedString())\"" }.joined(separator: ",") + "]}"
        let jws = try #require(try JWSTestPKI.signer().sign(JWSTestPKI.transaction(), header: header))
        try Self.expect(jws, .verificationFailure, detail: "crit", verifier: verifier)
        let xcode = try JWSTestPKI.verifier(environment: .xcode)
        try Self.expect(jws, .verificationFailure, detail: "crit", verifier: xcode)
    }

    @Test func missingAlgIsRejected() throws {
        let signer = try JWSTestPKI.signer()
        let jws = try #require(signer.sign(JWSTestPKI.transaction(), header: Self.header(alg: nil, x5c: try Self.chain())))
        try Self.expect(jws, .verificationFailure, detail: "alg is missing")
    }

    @Test(arguments: ["HS256", "RS256", "ES384", "es256"])
    func otherAlgorithmsAreRejected(_ alg: String) throws {
        let signer = try JWSTestPKI.signer()
        let jws = try #require(signer.sign(JWSTestPKI.transaction(), header: Self.header(alg: alg, x5c: try Self.chain())))
        try Self.expect(jws, .verificationFailure, detail: "only ES256")
    }

    @Test func hs256KeyedWithTheLeafsPublicKeyIsRejected() throws {
        let leaf = try JWSTestPKI.certificate("leaf")
        let header = Base64URL.encode(Array(Self.header(alg: "HS256", x5c: try Self.chain()).utf8))
        let payload = Base64URL.encode(try JSONEncoder().encode(JWSTestPKI.transaction()))
        let mac = Self.hmacSHA256(key: try #require(leaf.publicKey).spki, message: Array("\(header).\(payload)".utf8))
        try Self.expect("\(header).\(payload).\(Base64URL.encode(mac))", .verificationFailure, detail: "HS256")
    }

    @Test(arguments: [2, 4, 1])
    func wrongCertificateCountIsInvalidChainLength(_ count: Int) throws {
        let chain = try Self.chain()
        let x5c = Array((chain + [chain[2]]).prefix(count))
        let jws = try #require(try JWSTestPKI.signer().sign(JWSTestPKI.transaction(), header: Self.header(alg: "ES256", x5c: x5c)))
        try Self.expect(jws, .invalidChainLength, detail: "\(count) certificates")
    }

    @Test func emptyX5CIsRejected() throws {
        let jws = try #require(try JWSTestPKI.signer().sign(JWSTestPKI.transaction(), header: #"{"alg":"ES256","x5c":[]}"#))
        try Self.expect(jws, .verificationFailure, detail: "x5c")
    }

    @Test func garbageCertificateIsInvalidCertificate() throws {
        let chain = try Self.chain()
        let header = #"{"alg":"ES256","x5c":["TUlJ","\#(Data(chain[1].der).base64EncodedString())","\#(Data(chain[2].der).base64EncodedString())"]}"#
        let jws = try #require(try JWSTestPKI.signer().sign(JWSTestPKI.transaction(), header: header))
        try Self.expect(jws, .invalidCertificate, detail: "x5c[0]")
    }

    @Test func leafWithoutAppleMarkerIsRejected() throws {
        let jws = try #require(try JWSTestPKI.signer(leaf: "leaf-no-oid").sign(JWSTestPKI.transaction()))
        try Self.expect(jws, .verificationFailure, detail: "1.2.840.113635.100.6.11.1")
    }

    @Test func intermediateThatIsNotACAIsRejected() throws {
        let jws = try #require(try JWSTestPKI.signer(leaf: "leaf-under-not-ca", intermediate: "intermediate-not-ca")
            .sign(JWSTestPKI.transaction()))
        try Self.expect(jws, .verificationFailure, detail: "not a CA")
    }

    @Test func chainToAnUntrustedRootIsRejected() throws {
        let jws = try #require(try JWSTestPKI.signer(leaf: "other-leaf", intermediate: "other-intermediate", root: "other-root")
            .sign(JWSTestPKI.transaction()))
        try Self.expect(jws, .verificationFailure, detail: "trusted root")
        // Claiming the trusted root in x5c[2] does not help: only the configured roots are trusted.
        let mixed = try #require(try JWSTestPKI.signer(leaf: "other-leaf", intermediate: "other-intermediate", root: "root")
            .sign(JWSTestPKI.transaction()))
        try Self.expect(mixed, .verificationFailure, detail: "trusted root")
    }

    @Test func expiredLeafIsRejectedWithBothDates() throws {
        try Self.expect(try Self.validJWS(signedDate: JWSTestPKI.afterLeafExpiry), .verificationFailure,
                        detail: "leaf certificate expired 2046-11-25, signedDate 2050-01-01")
    }

    @Test func notYetValidLeafIsRejected() throws {
        try Self.expect(try Self.validJWS(signedDate: JWSTestPKI.beforeIssue), .verificationFailure,
                        detail: "certificate not valid until 2026-11-30, signedDate 2024-01-01")
    }

    @Test(arguments: ["1e300", "-1e300", "-5", "9223372036854775807", "\"2024\"", "null", "1.5e15"])
    func absurdSignedDatesAreRejectedWithoutCrashing(_ signedDate: String) throws {
        let json = #"{"transactionId":"1","productId":"p","purchaseDate":1,"type":"Consumable","bundleId":"com.tally.test","environment":"Sandbox","signedDate":"# + signedDate + "}"
        let jws = try #require(try JWSTestPKI.signer().sign(json: json))
        let result = try JWSTestPKI.verifier().verifyTransaction(jws)
        // A non-number signedDate reads as absent (the current time is used, and the fixture chain is valid
        // now); any other absurd date falls outside the chain's validity.
        if signedDate == "null" {
            #expect(result.value != nil, "\(String(describing: result))")
        } else if signedDate == "\"2024\"" {
            #expect(result.failure?.detail.contains("does not decode") == true, "\(String(describing: result))")
        } else {
            #expect(result.failure?.reason == .verificationFailure, "\(String(describing: result))")
        }
    }

    @Test func cachedChainIsRecheckedAtEachEffectiveDate() throws {
        let verifier = try JWSTestPKI.verifier()
        #expect(verifier.verifyTransaction(try Self.validJWS()).value != nil)
        #expect(verifier.cachedChainCount == 1)
        try Self.expect(try Self.validJWS(signedDate: JWSTestPKI.afterLeafExpiry), .verificationFailure,
                        detail: "expired", verifier: verifier)
        #expect(verifier.verifyTransaction(try Self.validJWS()).value != nil)
        #expect(verifier.cachedChainCount == 1)
        let fixed = try JWSTestPKI.verifier(effectiveDate: .fixed(JWSTestPKI.afterLeafExpiry))
        try Self.expect(try Self.validJWS(), .verificationFailure, detail: "given date 2050-01-01", verifier: fixed)
    }

    @Test func flippedSignatureBitIsRejected() throws {
        let parts = Self.parts(try Self.validJWS())
        var signature = try #require(Base64URL.decode(parts[2]))
        signature[17] ^= 0x01
        try Self.expect("\(parts[0]).\(parts[1]).\(Base64URL.encode(signature))", .verificationFailure, detail: "signature")
    }

    @Test func payloadOfOneWithSignatureOfAnotherIsRejected() throws {
        let first = Self.parts(try Self.validJWS())
        let second = Self.parts(try Self.validJWS(signedDate: JWSTestPKI.validDate.addingTimeInterval(1)))
        try Self.expect("\(first[0]).\(first[1]).\(second[2])", .verificationFailure, detail: "signature")
    }

    @Test func signatureOfWrongLengthIsRejected() throws {
        let parts = Self.parts(try Self.validJWS())
        let raw = try #require(Base64URL.decode(parts[2]))
        let der = try #require(ECDSA.derSignature(fromRaw: raw))
        try Self.expect("\(parts[0]).\(parts[1]).\(Base64URL.encode(der))", .verificationFailure, detail: "64 bytes")
    }

    @Test func truncatedInputIsRejected() throws {
        let jws = try Self.validJWS()
        for length in [0, 1, 10, jws.count / 3, jws.count / 2, jws.count - 5] {
            let result = try JWSTestPKI.verifier().verifyTransaction(String(jws.prefix(length)))
            #expect(result.failure?.reason == .verificationFailure, "prefix \(length): \(String(describing: result))")
        }
    }

    @Test func nonBase64URLInputIsRejected() throws {
        let parts = Self.parts(try Self.validJWS())
        try Self.expect("\(parts[0]).\(parts[1].replacingOccurrences(of: "e", with: "+")).\(parts[2])", .verificationFailure)
        try Self.expect("\(parts[0].dropLast(1))*.\(parts[1]).\(parts[2])", .verificationFailure)
        try Self.expect("\(parts[0]).\(parts[1]).\(parts[2])!", .verificationFailure, detail: "base64url")
        try Self.expect("not a jws at all", .verificationFailure, detail: "3 dot-separated parts")
    }

    @Test func payloadThatIsNotAnObjectIsRejected() throws {
        let signer = try JWSTestPKI.signer()
        for json in ["[]", "42", "\"text\"", "{", "null"] {
            try Self.expect(try #require(signer.sign(json: json)), .verificationFailure, detail: "not a JSON object")
        }
    }

    @Test func tenMegabytePayloadIsRejected() throws {
        let padding = String(repeating: "x", count: 10 << 20)
        let jws = try #require(try JWSTestPKI.signer().sign(json: #"{"transactionId":"1","padding":"\#(padding)"}"#))
        try Self.expect(jws, .verificationFailure, detail: "the limit is")
    }

    @Test func deeplyNestedJSONIsRejectedWithoutCrashing() throws {
        let json = String(repeating: "[", count: 100_000)
        let jws = try #require(try JWSTestPKI.signer().sign(json: json))
        try Self.expect(jws, .verificationFailure, detail: "not a JSON object")
        let nested = #"{"transactionId":"1","x":"# + String(repeating: "[", count: 100_000) + "}"
        try Self.expect(try #require(try JWSTestPKI.signer().sign(json: nested)), .verificationFailure)
    }

    @Test func wrongBundleAndEnvironmentAreReported() throws {
        let jws = try #require(try JWSTestPKI.signer().sign(JWSTestPKI.transaction(bundleId: "com.evil")))
        try Self.expect(jws, .invalidAppIdentifier, detail: "\"com.evil\"")
        try Self.expect(try Self.validJWS(), .invalidEnvironment, detail: "expects \"Production\"",
                        verifier: try JWSTestPKI.verifier(environment: .production))
    }

    @Test func manyThreadsVerifyTheSameAndDifferentDataConsistently() throws {
        let verifier = try JWSTestPKI.verifier()
        let good = try Self.validJWS()
        let expired = try Self.validJWS(signedDate: JWSTestPKI.afterLeafExpiry)
        let outcomes = Outcomes()
        DispatchQueue.concurrentPerform(iterations: 200) { index in
            let ok = verifier.verifyTransaction(index.isMultiple(of: 2) ? good : expired).value != nil
            outcomes.record(index: index, ok: ok)
        }
        #expect(outcomes.all == (0..<200).map { $0.isMultiple(of: 2) })
    }

    /// Collects results from concurrent iterations. `@unchecked Sendable`: `results` is only touched under `lock`.
    final class Outcomes: @unchecked Sendable {
        private let lock = NSLock()
        private var results = [Bool](repeating: false, count: 200)
        func record(index: Int, ok: Bool) { lock.withLock { results[index] = ok } }
        var all: [Bool] { lock.withLock { results } }
    }

    static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var block = key.count > 64 ? ECDSA.sha256(key) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        let inner = ECDSA.sha256(block.map { $0 ^ 0x36 } + message)
        return ECDSA.sha256(block.map { $0 ^ 0x5C } + inner)
    }
}
