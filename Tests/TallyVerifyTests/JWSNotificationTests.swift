import Foundation
import TallyCore
import Testing
@testable import TallyVerify

/// Notifications with nested signed data, kind detection and app transactions, on the fixture PKI.
@Suite struct JWSNotificationTests {
    static func renewal() -> RenewalInfo {
        RenewalInfo(
            originalTransactionId: "2000000000000001", productId: "com.tally.test.monthly", autoRenewStatus: .on,
            signedDate: JWSTestPKI.validDate, environment: .sandbox)
    }

    static func notification(transaction: String?, renewal: String?, bundleId: String = JWSTestPKI.bundleId) -> ServerNotification {
        ServerNotification(
            notificationType: .didRenew, notificationUUID: "0f6f7c3e-7c4b-4d8e-9d3a-1c2b3a4d5e6f",
            signedDate: JWSTestPKI.validDate,
            data: NotificationData(
                appAppleId: 1234, bundleId: bundleId, bundleVersion: "7", environment: .sandbox,
                signedTransactionInfo: transaction, signedRenewalInfo: renewal, status: 1),
            unknownFields: ["futureField": .string("kept")])
    }

    @Test func nestedTransactionAndRenewalAreVerifiedAndDecoded() throws {
        let signer = try JWSTestPKI.signer()
        let transaction = try #require(signer.sign(JWSTestPKI.transaction()))
        let renewal = try #require(signer.sign(Self.renewal()))
        let jws = try #require(signer.sign(Self.notification(transaction: transaction, renewal: renewal)))
        let verified = try JWSTestPKI.verifier().verifyNotification(jws).get()
        #expect(verified.notificationType == .didRenew)
        #expect(verified.data?.transactionInfo == JWSTestPKI.transaction())
        #expect(verified.data?.renewalInfo == Self.renewal())
        #expect(verified.unknownFields["futureField"] == .string("kept"))
        #expect(verified.data?.signedTransactionInfo == transaction)
    }

    @Test func tamperedNestedTransactionFailsTheNotification() throws {
        let signer = try JWSTestPKI.signer()
        let transaction = try #require(signer.sign(JWSTestPKI.transaction()))
        let parts = transaction.split(separator: ".").map(String.init)
        let forged = Base64URL.encode(try JSONEncoder().encode(JWSTestPKI.transaction(bundleId: JWSTestPKI.bundleId)
            .with(quantity: 1000)))
        let tampered = "\(parts[0]).\(forged).\(parts[2])"
        let jws = try #require(signer.sign(Self.notification(transaction: tampered, renewal: nil)))
        let failure = try #require(try JWSTestPKI.verifier().verifyNotification(jws).failure)
        #expect(failure.reason == .verificationFailure)
        #expect(failure.detail.hasPrefix("data.signedTransactionInfo: the ES256 signature"), "\(failure.detail)")
    }

    @Test func nestedTransactionOfAnotherAppFailsTheNotification() throws {
        let signer = try JWSTestPKI.signer()
        let transaction = try #require(signer.sign(JWSTestPKI.transaction(bundleId: "com.other")))
        let jws = try #require(signer.sign(Self.notification(transaction: transaction, renewal: nil)))
        let failure = try #require(try JWSTestPKI.verifier().verifyNotification(jws).failure)
        #expect(failure.reason == .invalidAppIdentifier)
        #expect(failure.detail.hasPrefix("data.signedTransactionInfo: bundleId"), "\(failure.detail)")
    }

    @Test func kindIsDetectedFromThePayload() throws {
        let signer = try JWSTestPKI.signer()
        let verifier = try JWSTestPKI.verifier()
        let app = StoreAppTransaction(
            receiptType: .sandbox, appAppleId: 1234, bundleId: JWSTestPKI.bundleId, applicationVersion: "7",
            receiptCreationDate: JWSTestPKI.validDate, originalPlatform: "iOS")
        let inputs: [(String?, SignedPayloadKind)] = [
            (signer.sign(JWSTestPKI.transaction()), .transaction),
            (signer.sign(Self.renewal()), .renewalInfo),
            (signer.sign(Self.notification(transaction: nil, renewal: nil)), .notification),
            (signer.sign(app), .appTransaction),
        ]
        for (jws, kind) in inputs {
            let result = verifier.verifyDetectingKind(try #require(jws))
            #expect(result.value?.kind == kind, "\(String(describing: result))")
        }
        let unknown = try #require(signer.sign(json: #"{"signedDate":1893456000000}"#))
        #expect(verifier.verifyDetectingKind(unknown).failure?.detail.contains("is not a transaction") == true)
    }

    @Test func appTransactionChecksAppAppleIdOnlyInProduction() throws {
        let signer = try JWSTestPKI.signer()
        let app = StoreAppTransaction(
            receiptType: .production, appAppleId: 999, bundleId: JWSTestPKI.bundleId,
            receiptCreationDate: JWSTestPKI.validDate)
        let jws = try #require(signer.sign(app))
        let production = try JWSTestPKI.verifier(environment: .production, appAppleId: 1234)
        #expect(production.verifyAppTransaction(jws).failure?.reason == .invalidAppIdentifier)
        let matching = try JWSTestPKI.verifier(environment: .production, appAppleId: 999)
        #expect(matching.verifyAppTransaction(jws).value == app)
        // receiptCreationDate is the effective date when there is no signedDate.
        let old = StoreAppTransaction(receiptType: .sandbox, bundleId: JWSTestPKI.bundleId, receiptCreationDate: JWSTestPKI.afterLeafExpiry)
        let oldJWS = try #require(signer.sign(old))
        let failure = try #require(try JWSTestPKI.verifier().verifyAppTransaction(oldJWS).failure)
        #expect(failure.detail.contains("receiptCreationDate 2050-01-01"), "\(failure.detail)")
    }

    @Test func bundleIdIsNotCheckedWhenNotConfigured() throws {
        let jws = try #require(try JWSTestPKI.signer().sign(JWSTestPKI.transaction(bundleId: "com.any")))
        #expect(try JWSTestPKI.verifier(bundleId: nil).verifyTransaction(jws).value?.bundleId == "com.any")
    }
}

extension StoreTransaction {
    func with(quantity: Int) -> StoreTransaction {
        var copy = self
        copy.quantity = quantity
        return copy
    }
}
