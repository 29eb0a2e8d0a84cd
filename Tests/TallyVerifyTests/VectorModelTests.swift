import Foundation
import TallyCore
import Testing
@testable import TallyVerify

/// Apple's `models/*.json` fixtures, signed at test time with a fresh key and no x5c and verified in the
/// LocalTesting environment (no signature or chain check), exactly as Apple's decoding tests do.
@Suite struct VectorModelTests {
    static func signed(_ model: String) throws -> String {
        let json = try Data(contentsOf: JWSTestPaths.appleLibrary.appendingPathComponent("models/\(model).json"))
        let signer = JWSSigner(key: try #require(PrivateKey.generateP256()), chain: [])
        return try #require(signer.sign(payload: json))
    }

    static func verifier(nested: Bool = false) throws -> SignedDataVerifier {
        try SignedDataVerifier(configuration: VerifierConfiguration(
            bundleId: "com.example", environment: .localTesting, verifiesNestedPayloads: nested))
    }

    @Test func notification() throws {
        let notification = try Self.verifier().verifyNotification(try Self.signed("signedNotification")).get()
        #expect(notification.notificationType == .subscribed && notification.subtype == .initialBuy)
        #expect(notification.notificationUUID == "002e14d5-51f5-4503-b5a8-c3a1af68eb20")
        #expect(notification.version == "2.0" && notification.signedDate?.millisecondsSince1970 == 1_698_148_900_000)
        let data = try #require(notification.data)
        #expect(data.environment == .localTesting && data.appAppleId == 41234 && data.bundleId == "com.example")
        #expect(data.bundleVersion == "1.2.3" && data.status == 1)
        #expect(data.signedTransactionInfo == "signed_transaction_info_value")
        #expect(data.signedRenewalInfo == "signed_renewal_info_value")
    }

    @Test func nestedPlaceholdersFailWhenNestedVerificationIsOn() throws {
        let failure = try #require(try Self.verifier(nested: true).verifyNotification(try Self.signed("signedNotification")).failure)
        #expect(failure.reason == .verificationFailure)
        #expect(failure.detail.hasPrefix("data.signedTransactionInfo: "), "\(failure.detail)")
    }

    @Test func consumptionRequestNotification() throws {
        let notification = try Self.verifier().verifyNotification(try Self.signed("signedConsumptionRequestNotification")).get()
        #expect(notification.notificationType == .consumptionRequest && notification.subtype == nil)
        #expect(notification.data?.consumptionRequestReason == "UNINTENDED_PURCHASE")
    }

    @Test func summaryNotification() throws {
        let notification = try Self.verifier().verifyNotification(try Self.signed("signedSummaryNotification")).get()
        #expect(notification.notificationType == .renewalExtension && notification.subtype == .summary)
        let summary = try #require(notification.summary)
        #expect(summary.environment == .localTesting && summary.appAppleId == 41234 && summary.bundleId == "com.example")
        #expect(summary.productId == "com.example.product")
        #expect(summary.requestIdentifier == "efb27071-45a4-4aca-9854-2a1e9146f265")
        #expect(summary.storefrontCountryCodes == ["CAN", "USA", "MEX"])
        #expect(summary.succeededCount == 5 && summary.failedCount == 2)
    }

    @Test(arguments: [("signedExternalPurchaseTokenNotification", "Production"),
                      ("signedExternalPurchaseTokenSandboxNotification", "Sandbox")])
    func externalPurchaseTokenEnvironmentIsInferredFromItsId(_ model: String, _ environment: String) throws {
        let jws = try Self.signed(model)
        // LocalTesting never matches the inferred environment; the detail shows what Apple's rule inferred.
        let failure = try #require(try Self.verifier().verifyNotification(jws).failure)
        #expect(failure.reason == .invalidEnvironment)
        #expect(failure.detail.contains("externalPurchaseToken.environment is \"\(environment)\""), "\(failure.detail)")
        let payload = try Self.verifier().verifyPayload(jws, as: ServerNotification.self, kind: .renewalInfo)
        #expect(payload.failure?.reason == .invalidEnvironment)  // no top-level environment either
        let parts = try CompactJWS.split(jws).get()
        let notification = try JSONDecoder().decode(ServerNotification.self, from: Data(try #require(Base64URL.decode(parts.payload))))
        let token = try #require(notification.externalPurchaseToken)
        #expect(token.appAppleId == 55555 && token.bundleId == "com.example")
        #expect(token.tokenCreationDate?.millisecondsSince1970 == 1_698_148_950_000)
        #expect(token.environment.rawValue == environment)
    }

    @Test func transaction() throws {
        let transaction = try Self.verifier().verifyTransaction(try Self.signed("signedTransaction")).get()
        #expect(transaction.transactionId == "23456" && transaction.originalTransactionId == "12345")
        #expect(transaction.webOrderLineItemId == "34343" && transaction.productId == "com.example.product")
        #expect(transaction.subscriptionGroupIdentifier == "55555")
        #expect(transaction.purchaseDate.millisecondsSince1970 == 1_698_148_900_000)
        #expect(transaction.originalPurchaseDate?.millisecondsSince1970 == 1_698_148_800_000)
        #expect(transaction.expiresDate?.millisecondsSince1970 == 1_698_149_000_000)
        #expect(transaction.type == .autoRenewable && transaction.appAccountToken == "7e3fb20b-4cdb-47cc-936d-99d65f608138")
        #expect(transaction.revocationReason?.rawValue == 1 && transaction.revocationDate?.millisecondsSince1970 == 1_698_148_950_000)
        #expect(transaction.isUpgraded == true && transaction.offerType == .introductory && transaction.offerIdentifier == "abc.123")
        #expect(transaction.environment == .localTesting && transaction.transactionReason == .purchase)
        #expect(transaction.storefront == "USA" && transaction.storefrontId == "143441")
        #expect(transaction.price == 10990 && transaction.priceAmount == Decimal(string: "10.99") && transaction.currency == "USD")
        #expect(transaction.offerDiscountType?.rawValue == "PAY_AS_YOU_GO" && transaction.offerPeriod == "P1Y")
        #expect(transaction.appTransactionId == "71134" && transaction.billingPlanType?.rawValue == "MONTHLY")
        #expect(transaction.commitmentInfo != nil && transaction.advancedCommerceInfo != nil)
    }

    @Test func renewalInfo() throws {
        let renewal = try Self.verifier().verifyRenewalInfo(try Self.signed("signedRenewalInfo")).get()
        #expect(renewal.expirationIntent?.rawValue == 1 && renewal.originalTransactionId == "12345")
        #expect(renewal.autoRenewProductId == "com.example.product.2" && renewal.productId == "com.example.product")
        #expect(renewal.autoRenewStatus == .on && renewal.isInBillingRetryPeriod == true)
        #expect(renewal.priceIncreaseStatus?.rawValue == 0)
        #expect(renewal.gracePeriodExpiresDate?.millisecondsSince1970 == 1_698_148_900_000)
        #expect(renewal.offerType?.rawValue == 2 && renewal.offerIdentifier == "abc.123")
        #expect(renewal.environment == .localTesting && renewal.renewalPrice == 9990 && renewal.currency == "USD")
        #expect(renewal.eligibleWinBackOfferIds == ["eligible1", "eligible2"])
        #expect(renewal.renewalDate?.millisecondsSince1970 == 1_698_148_850_000)
    }

    @Test func appTransaction() throws {
        let app = try Self.verifier().verifyAppTransaction(try Self.signed("appTransaction")).get()
        #expect(app.receiptType == .localTesting && app.appAppleId == 531412 && app.bundleId == "com.example")
        #expect(app.applicationVersion == "1.2.3" && app.versionExternalIdentifier == 512)
        #expect(app.receiptCreationDate?.millisecondsSince1970 == 1_698_148_900_000)
        #expect(app.originalPurchaseDate?.millisecondsSince1970 == 1_698_148_800_000)
        #expect(app.originalApplicationVersion == "1.1.2" && app.deviceVerification == "device_verification_value")
        #expect(app.deviceVerificationNonce == "48ccfa42-7431-4f22-9908-7e88983e105a")
        #expect(app.preorderDate?.millisecondsSince1970 == 1_698_148_700_000)
        #expect(app.appTransactionId == "71134" && app.originalPlatform == "iOS")
    }

    @Test func rescindConsentNotificationNamesItsAppInAppData() throws {
        let jws = try Self.signed("signedRescindConsentNotification")
        let notification = try Self.verifier().verifyNotification(jws).get()
        #expect(notification.notificationType == .rescindConsent && notification.data == nil)
        let appData = try #require(notification.appData)
        #expect(appData.appAppleId == 41234 && appData.bundleId == "com.example" && appData.environment == .localTesting)
        #expect(appData.signedAppTransactionInfo == "signed_app_transaction_info_value")
        let wrongApp = try SignedDataVerifier(configuration: VerifierConfiguration(
            bundleId: "com.other", environment: .localTesting, verifiesNestedPayloads: false))
        #expect(wrongApp.verifyNotification(jws).failure?.detail.hasPrefix("appData.bundleId") == true)
    }
}
