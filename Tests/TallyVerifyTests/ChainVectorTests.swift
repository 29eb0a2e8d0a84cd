import Foundation
import TallyCore
import Testing
@testable import TallyVerify

/// Apple's chain-verifier unit tests on the inline certificate constants (MANIFEST: "Chain-verifier unit
/// tests on the inline constants", EFFECTIVE_DATE = 2025-11-01T02:09:35Z).
@Suite struct ChainVectorTests {
    static let effectiveDate = Date(timeIntervalSince1970: 1_761_962_975)

    static func base64(_ name: String) throws -> String {
        let data = try Data(contentsOf: JWSTestPaths.inlineConstants.appendingPathComponent("\(name).pem"))
        let certificate = try #require(Certificate.parseAll(data).first, "\(name).pem")
        return Data(certificate.der).base64EncodedString()
    }

    static func verifier(root: String) throws -> SignedDataVerifier {
        let data = try Data(contentsOf: JWSTestPaths.inlineConstants.appendingPathComponent("\(root).pem"))
        let certificate = try #require(Certificate.parseAll(data).first)
        return try SignedDataVerifier(rootCertificates: [certificate], bundleId: nil, environment: .sandbox)
    }

    @Test func validChainReturnsTheLeafKey() throws {
        let key = try Self.verifier(root: "ROOT_CA").verifyCertificateChain(
            [try Self.base64("LEAF_CERT"), try Self.base64("INTERMEDIATE_CA"), try Self.base64("ROOT_CA")],
            at: Self.effectiveDate
        ).get()
        let expected = try Data(contentsOf: JWSTestPaths.inlineConstants.appendingPathComponent("LEAF_CERT_PUBLIC_KEY.pem"))
        #expect(key.spki == PublicKey(spki: expected)?.spki)
        #expect(!key.spki.isEmpty)
    }

    @Test func intermediateWithoutWWDRMarkerIsRejected() throws {
        let failure = try #require(try Self.verifier(root: "ROOT_CA").verifyCertificateChain(
            [try Self.base64("LEAF_CERT_FOR_INTERMEDIATE_CA_INVALID_OID"), try Self.base64("INTERMEDIATE_CA_INVALID_OID"),
             try Self.base64("ROOT_CA")],
            at: Self.effectiveDate
        ).failure)
        #expect(failure.reason == .verificationFailure)
        #expect(failure.detail.contains("1.2.840.113635.100.6.2.1"))
    }

    @Test func leafWithoutSigningMarkerIsRejected() throws {
        let failure = try #require(try Self.verifier(root: "ROOT_CA").verifyCertificateChain(
            [try Self.base64("LEAF_CERT_INVALID_OID"), try Self.base64("INTERMEDIATE_CA"), try Self.base64("ROOT_CA")],
            at: Self.effectiveDate
        ).failure)
        #expect(failure.reason == .verificationFailure)
        #expect(failure.detail.contains("1.2.840.113635.100.6.11.1"))
    }

    @Test func twoCertificatesIsInvalidChainLength() throws {
        let result = try Self.verifier(root: "ROOT_CA").verifyCertificateChain(
            [try Self.base64("INTERMEDIATE_CA"), try Self.base64("ROOT_CA")], at: Self.effectiveDate)
        #expect(result.failure?.reason == .invalidChainLength)
    }

    @Test func malformedCertificatesAreInvalidCertificate() throws {
        let verifier = try Self.verifier(root: "ROOT_CA")
        let intermediate = try Self.base64("INTERMEDIATE_CA")
        let root = try Self.base64("ROOT_CA")
        #expect(verifier.verifyCertificateChain(["abc", intermediate, root], at: Self.effectiveDate).failure?.reason
            == .invalidCertificate)
        let abc123 = Data("abc123".utf8).base64EncodedString()
        #expect(verifier.verifyCertificateChain([abc123, intermediate, root], at: Self.effectiveDate).failure?.reason
            == .invalidCertificate)
    }

    @Test func validChainIsRejectedAfterItExpires() throws {
        let failure = try #require(try Self.verifier(root: "ROOT_CA").verifyCertificateChain(
            [try Self.base64("LEAF_CERT"), try Self.base64("INTERMEDIATE_CA"), try Self.base64("ROOT_CA")],
            at: Date(timeIntervalSince1970: 2_280_946_846)
        ).failure)
        #expect(failure.reason == .verificationFailure)
        #expect(failure.detail.contains("expired"), "\(failure.detail)")
    }

    @Test func testChainDoesNotVerifyUnderTheRealAppleRoot() throws {
        let result = try Self.verifier(root: "REAL_APPLE_ROOT").verifyCertificateChain(
            [try Self.base64("LEAF_CERT"), try Self.base64("INTERMEDIATE_CA"), try Self.base64("ROOT_CA")],
            at: Self.effectiveDate)
        #expect(result.failure?.reason == .verificationFailure)
    }

    @Test func realAppleChainVerifiesOffline() throws {
        let result = try Self.verifier(root: "REAL_APPLE_ROOT").verifyCertificateChain(
            [try Self.base64("REAL_APPLE_SIGNING_CERTIFICATE"), try Self.base64("REAL_APPLE_INTERMEDIATE"),
             try Self.base64("REAL_APPLE_ROOT")],
            at: Self.effectiveDate)
        #expect(result.value?.isP256 == true)
    }

    @Test func historicalAppleLeafVerifiesAtItsEffectiveDateOnly() throws {
        let verifier = try Self.verifier(root: "REAL_APPLE_ROOT")
        let chain = [try Self.base64("REAL_APPLE_SIGNING_CERTIFICATE_2023_historical"),
                     try Self.base64("REAL_APPLE_INTERMEDIATE"), try Self.base64("REAL_APPLE_ROOT")]
        #expect(verifier.verifyCertificateChain(chain, at: Date(timeIntervalSince1970: 1_681_312_846)).value != nil)
        #expect(verifier.verifyCertificateChain(chain, at: Self.effectiveDate).failure?.reason == .verificationFailure)
    }

    @Test func strictChecksAcceptAppleChainsAndRefuseTheTestChainWithoutKeyIdentifiers() throws {
        func strict(_ root: String) throws -> SignedDataVerifier {
            let data = try Data(contentsOf: JWSTestPaths.inlineConstants.appendingPathComponent("\(root).pem"))
            let certificate = try #require(Certificate.parseAll(data).first)
            return try SignedDataVerifier(configuration: VerifierConfiguration(
                rootCertificates: [certificate], bundleId: nil, environment: .sandbox, strictChecks: true))
        }
        let apple = [try Self.base64("REAL_APPLE_SIGNING_CERTIFICATE"), try Self.base64("REAL_APPLE_INTERMEDIATE"),
                     try Self.base64("REAL_APPLE_ROOT")]
        #expect(try strict("REAL_APPLE_ROOT").verifyCertificateChain(apple, at: Self.effectiveDate).value != nil)
        // Apple's Python tests turn strict checks off for these certificates: they lack AKI/SKI.
        let test = [try Self.base64("LEAF_CERT"), try Self.base64("INTERMEDIATE_CA"), try Self.base64("ROOT_CA")]
        #expect(try strict("ROOT_CA").verifyCertificateChain(test, at: Self.effectiveDate).failure?.reason == .verificationFailure)
    }

    @Test func emptyRootListIsAConfigurationError() {
        #expect(throws: VerifierConfigurationError.self) {
            try SignedDataVerifier(rootCertificates: [], bundleId: nil, environment: .sandbox)
        }
    }
}
