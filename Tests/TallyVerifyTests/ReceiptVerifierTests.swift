import Foundation
import Testing
@testable import TallyVerify

@Suite("Receipt verifier")
struct ReceiptVerifierTests {
    let appleVerifier: ReceiptVerifier

    init() throws {
        appleVerifier = try ReceiptVerifier()
    }

    @Test("every real receipt verifies against Apple Inc. Root CA at its creation date", arguments: ReceiptVectors.realReceiptNames())
    func realReceiptVerifies(name: String) throws {
        let decoded = try ReceiptVectors.decoded(name)
        let summary = try #require(decoded["summary"] as? [String: Any])
        let verifier = try ReceiptVerifier(expectedBundleId: summary["bundle_id"] as? String)
        let receipt = try verifier.verify(base64: ReceiptVectors.realReceipt(name)).get()
        #expect(receipt.bundleId == summary["bundle_id"] as? String)
        #expect(ReceiptTimestamp.text(receipt.creationDate) == summary["creation_date"] as? String)
    }

    @Test("the built-in root is byte-identical to Apple's published certificate")
    func builtInRootMatchesFile() throws {
        #expect(ReceiptVerifier.appleIncRootCertificate == (try Data(contentsOf: ReceiptVectors.appleRootFile)))
    }

    @Test("a receipt with one payload byte changed is rejected: signature does not match the content")
    func tamperedReceiptIsRejected() throws {
        let result = appleVerifier.verify(base64: try ReceiptVectors.text(ReceiptVectors.tamperedReceipt))
        let failure = try #require(result.receiptFailure)
        #expect(failure.reason == .verificationFailure)
        #expect(failure.detail.contains("signature does not match the content"))
        // The payload itself still parses: only the signature catches the change.
        let parsed = try AppReceipt.parse(base64: try ReceiptVectors.text(ReceiptVectors.tamperedReceipt)).get()
        #expect(parsed.bundleId == "Org.getpure.pure-iphone")
    }

    @Test("verifying at today's date fails with INVALID_CERTIFICATE naming the expired certificate's dates")
    func expiredAtEffectiveDate() throws {
        let result = appleVerifier.verify(
            base64: try ReceiptVectors.realReceipt(ReceiptVectors.omnichess2015Leaf),
            at: .date(Date(timeIntervalSince1970: 1_767_225_600)))  // 2026-01-01
        let failure = try #require(result.receiptFailure)
        #expect(failure.reason == .invalidCertificate)
        #expect(failure.detail.contains("2023-02-07T21:48:47Z"))
        #expect(failure.detail.contains("2026-01-01T00:00:00Z"))
        #expect(failure.detail.contains("2022-05-08T21:02:28Z"))
    }

    @Test("a receipt is rejected when only Apple Root CA - G3 (the JWS root) is trusted")
    func wrongRootIsRejected() throws {
        let verifier = try ReceiptVerifier(trustedRoots: [Data(contentsOf: ReceiptVectors.appleRootG3File)])
        let failure = try #require(verifier.verify(base64: try ReceiptVectors.realReceipt(ReceiptVectors.getpure)).receiptFailure)
        #expect(failure.reason == .verificationFailure)
        #expect(failure.detail.contains("chain does not lead to a trusted root"))
    }

    @Test("a bundle id other than the expected one is INVALID_APP_IDENTIFIER")
    func bundleIdMismatch() throws {
        let verifier = try ReceiptVerifier(expectedBundleId: "com.example.other")
        let failure = try #require(verifier.verify(base64: try ReceiptVectors.realReceipt(ReceiptVectors.getpure)).receiptFailure)
        #expect(failure.reason == .invalidAppIdentifier)
        #expect(failure.detail.contains("org.getpure.pure-iphone"))
        #expect(failure.detail.contains("com.example.other"))
    }

    @Test("Xcode receipts are rejected against Apple's root", arguments: ["xcode-app-receipt-empty", "xcode-app-receipt-with-transaction"])
    func xcodeReceiptRejectedByAppleRoot(name: String) throws {
        let failure = try #require(appleVerifier.verify(base64: try ReceiptVectors.xcodeReceipt(name)).receiptFailure)
        #expect(failure.reason == .verificationFailure)
        #expect(failure.detail.contains("chain does not lead to a trusted root"))
        #expect(failure.detail.contains("StoreKit"))
    }

    @Test("Xcode receipts verify when the StoreKit test certificate is configured", arguments: ["xcode-app-receipt-empty", "xcode-app-receipt-with-transaction"])
    func xcodeReceiptVerifiesWithTestCertificate(name: String) throws {
        let verifier = try ReceiptVerifier(
            storeKitTestCertificate: ReceiptVectors.storeKitTestCertificate(),
            expectedBundleId: "com.example.naturelab.backyardbirds.example")
        let receipt = try verifier.verify(base64: try ReceiptVectors.xcodeReceipt(name)).get()
        #expect(receipt.isXcodeReceipt)
        // The StoreKit certificate does not make App Store receipts verify by itself.
        let onlyTest = try ReceiptVerifier(trustedRoots: [], storeKitTestCertificate: ReceiptVectors.storeKitTestCertificate())
        #expect(onlyTest.verify(base64: try ReceiptVectors.realReceipt(ReceiptVectors.getpure)).receiptFailure?.reason == .verificationFailure)
    }

    @Test("the StoreKit certificate trusted as an ordinary root fails Apple's receipt-signing OID check")
    func storeKitCertificateAsRootLacksAppleOID() throws {
        let verifier = try ReceiptVerifier(trustedRoots: [ReceiptVectors.storeKitTestCertificate()])
        let result = verifier.verify(base64: try ReceiptVectors.xcodeReceipt("xcode-app-receipt-with-transaction"))
        let failure = try #require(result.receiptFailure)
        #expect(failure.reason == .verificationFailure)
        #expect(failure.detail.contains("1.2.840.113635.100.6.11.1"))
    }

    @Test("configuring a root that is not a certificate fails with INVALID_CERTIFICATE")
    func badRootConfiguration() {
        #expect(throws: VerificationFailure.self) { try ReceiptVerifier(trustedRoots: [Data("not a cert".utf8)]) }
        #expect(throws: VerificationFailure.self) { try ReceiptVerifier(trustedRoots: []) }
        do {
            _ = try ReceiptVerifier(trustedRoots: [Data([0x30, 0x03, 0x02, 0x01, 0x01])])
            Issue.record("accepted a non-certificate root")
        } catch {
            #expect(error.reason == .invalidCertificate)
        }
    }
}

extension Result {
    /// The failure, nil on success.
    var receiptFailure: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}
