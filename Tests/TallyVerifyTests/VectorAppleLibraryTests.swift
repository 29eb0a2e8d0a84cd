import Foundation
import TallyCore
import Testing
@testable import TallyVerify

/// Apple's own test data (app-store-server-library resources) gives the outcomes Apple's tests expect;
/// see `shared/vectors/apple-server-library/MANIFEST.md` section A.
@Suite struct VectorAppleLibraryTests {
    static func mock(_ name: String) throws -> String {
        try JWSTestPaths.text(JWSTestPaths.appleLibrary.appendingPathComponent("mock_signed_data/\(name)"))
    }

    static func xcode(_ name: String) throws -> String {
        try JWSTestPaths.text(JWSTestPaths.appleLibrary.appendingPathComponent("xcode/\(name)"))
    }

    /// `SignedDataVerifier([testCA.der], enableOnlineChecks=false, environment, bundleId, appAppleId)` as Apple's tests make it.
    static func verifier(_ environment: StoreEnvironment, bundleId: String? = "com.example", appAppleId: Int64? = 1234) throws
        -> SignedDataVerifier
    {
        let der = try Data(contentsOf: JWSTestPaths.appleLibrary.appendingPathComponent("certs/testCA.der"))
        let root = try #require(Certificate(der: der))
        return try SignedDataVerifier(configuration: VerifierConfiguration(
            rootCertificates: [root], bundleId: bundleId, appAppleId: appAppleId, environment: environment))
    }

    @Test func testNotificationDecodesInSandbox() throws {
        let notification = try Self.verifier(.sandbox).verifyNotification(try Self.mock("testNotification")).get()
        #expect(notification.notificationType == .test)
        #expect(notification.notificationUUID == "9ad56bd2-0bc6-42e0-af24-fd996d87a1e6")
        #expect(notification.signedDate?.millisecondsSince1970 == 1_681_314_324_000)
        #expect(notification.data?.appAppleId == 1234)
        #expect(notification.data?.bundleId == "com.example")
        #expect(notification.data?.environment == .sandbox)
        #expect(notification.subtype == nil && notification.version == nil)
    }

    @Test func testNotificationInProductionIsInvalidEnvironment() throws {
        let result = try Self.verifier(.production).verifyNotification(try Self.mock("testNotification"))
        #expect(result.failure?.reason == .invalidEnvironment)
    }

    @Test func testNotificationWithOtherAppAppleIdInProductionIsInvalidAppIdentifier() throws {
        let result = try Self.verifier(.production, appAppleId: 1235).verifyNotification(try Self.mock("testNotification"))
        #expect(result.failure?.reason == .invalidAppIdentifier)
        // appAppleId is compared only in Production:
        #expect(try Self.verifier(.sandbox, appAppleId: 1235).verifyNotification(try Self.mock("testNotification")).value != nil)
    }

    @Test func testNotificationAsTransactionLacksBundleId() throws {
        // Swift's variant: verifyAndDecodeTransaction on the notification → INVALID_APP_IDENTIFIER.
        let result = try Self.verifier(.sandbox, appAppleId: 1235).verifyTransaction(try Self.mock("testNotification"))
        #expect(result.failure?.reason == .invalidAppIdentifier)
    }

    @Test func transactionInfoVerifiesWithApplesChecks() throws {
        let jws = try Self.mock("transactionInfo")
        let payload = try Self.verifier(.sandbox).verifyPayload(jws, as: JSONValue.self, kind: .transaction).get()
        guard case .object(let fields) = payload else {
            Issue.record("payload is not an object")
            return
        }
        #expect(fields["environment"] == .string("Sandbox"))
        #expect(fields["bundleId"] == .string("com.example"))
        #expect(fields["signedDate"] == .integer(1_672_956_154_000))
        // The node test decodes it as renewal info (no bundle check there).
        #expect(try Self.verifier(.sandbox, bundleId: "com.wrong").verifyPayload(jws, as: JSONValue.self, kind: .renewalInfo).value != nil)
    }

    @Test func transactionInfoWithOtherBundleIdIsInvalidAppIdentifier() throws {
        let result = try Self.verifier(.sandbox, bundleId: "com.example.x").verifyTransaction(try Self.mock("transactionInfo"))
        #expect(result.failure?.reason == .invalidAppIdentifier)
    }

    @Test func transactionInfoLacksTheFieldsOfTallysTransaction() throws {
        // Deviation (documented): Apple's model is all-optional; Tally's StoreTransaction needs transactionId,
        // productId, purchaseDate and type, so the typed call names what is missing after every check passed.
        let failure = try #require(try Self.verifier(.sandbox).verifyTransaction(try Self.mock("transactionInfo")).failure)
        #expect(failure.reason == .verificationFailure)
        #expect(failure.detail.contains("does not decode: missing purchaseDate"), "\(failure.detail)")
    }

    @Test func sparseTransactionInfoIsIncompleteNotAFailure() throws {
        // As in Apple's library (all-optional model): the payload verifies; what Tally's model needs is listed.
        let payload = try Self.verifier(.sandbox).verify(try Self.mock("transactionInfo"), kind: .transaction).get()
        guard case .incomplete(let incomplete) = payload else {
            Issue.record("expected an incomplete payload, got \(payload)")
            return
        }
        #expect(payload.kind == .transaction)
        #expect(incomplete.missing == ["productId", "purchaseDate", "transactionId", "type"])
        #expect(incomplete.fields["bundleId"] == .string("com.example"))
        #expect(incomplete.fields["signedDate"] == .integer(1_672_956_154_000))
        #expect(incomplete.fields["transactionId"] == .null)
        // The checks still apply to it.
        #expect(try Self.verifier(.sandbox, bundleId: "com.example.x").verify(try Self.mock("transactionInfo"), kind: .transaction)
            .failure?.reason == .invalidAppIdentifier)
    }

    @Test func sparseRenewalInfoIsIncompleteNotAFailure() throws {
        let payload = try Self.verifier(.sandbox).verify(try Self.mock("renewalInfo"), kind: .renewalInfo).get()
        guard case .incomplete(let incomplete) = payload else {
            Issue.record("expected an incomplete payload, got \(payload)")
            return
        }
        #expect(incomplete.kind == .renewalInfo)
        #expect(incomplete.missing == ["originalTransactionId"])
        #expect(incomplete.fields["environment"] == .string("Sandbox"))
    }

    @Test func aSparsePayloadWithAMalformedFieldStillFails() throws {
        // Missing required fields are tolerated; a present field of the wrong type is not.
        let signer = try JWSTestPKI.signer()
        let jws = try #require(signer.sign(json: #"{"bundleId":"\#(JWSTestPKI.bundleId)","environment":"Sandbox","signedDate":\#(JWSTestPKI.validDate.millisecondsSince1970),"quantity":"many"}"#))
        let verifier = try JWSTestPKI.verifier()
        let failure = try #require(verifier.verify(jws, kind: .transaction).failure)
        #expect(failure.reason == .verificationFailure)
        #expect(failure.detail.contains("quantity"), "\(failure.detail)")
        let missing = try #require(signer.sign(json: #"{"bundleId":"\#(JWSTestPKI.bundleId)","environment":"Sandbox","signedDate":\#(JWSTestPKI.validDate.millisecondsSince1970),"transactionId":null,"quantity":2}"#))
        guard case .incomplete(let incomplete) = try verifier.verify(missing, kind: .transaction).get() else {
            Issue.record("a null required field is missing, not malformed")
            return
        }
        #expect(incomplete.fields["quantity"] == .integer(2))
        #expect(incomplete.missing.contains("transactionId"))
    }

    @Test func renewalInfoVerifiesWithEnvironmentOnly() throws {
        let jws = try Self.mock("renewalInfo")
        let payload = try Self.verifier(.sandbox, bundleId: "not.checked").verifyPayload(jws, as: JSONValue.self, kind: .renewalInfo).get()
        guard case .object(let fields) = payload else {
            Issue.record("payload is not an object")
            return
        }
        #expect(fields["environment"] == .string("Sandbox"))
        #expect(fields["signedDate"] == .integer(1_672_956_154_000))
        #expect(try Self.verifier(.production).verifyPayload(jws, as: JSONValue.self, kind: .renewalInfo).failure?.reason
            == .invalidEnvironment)
    }

    @Test func wrongBundleIdNotificationIsInvalidAppIdentifier() throws {
        let result = try Self.verifier(.sandbox).verifyNotification(try Self.mock("wrongBundleId"))
        #expect(result.failure?.reason == .invalidAppIdentifier)
        #expect(result.failure?.detail.contains("com.example.wrong") == true)
    }

    @Test func missingX5CHeaderIsRejected() throws {
        let result = try Self.verifier(.sandbox).verifyNotification(try Self.mock("missingX5CHeaderClaim"))
        #expect(result.failure?.reason == .verificationFailure)
        #expect(result.failure?.detail.contains("x5c") == true)
    }

    @Test func malformedInlineStringsAreVerificationFailures() throws {
        let verifier = try Self.verifier(.sandbox)
        #expect(verifier.verifyNotification("a.b.c.d").failure?.reason == .verificationFailure)
        #expect(verifier.verifyNotification("a.b.c").failure?.reason == .verificationFailure)
    }

    static let xcodeBundle = "com.example.naturelab.backyardbirds.example"

    @Test func xcodeSignedTransactionDecodesWithoutChainCheck() throws {
        let transaction = try Self.verifier(.xcode, bundleId: Self.xcodeBundle)
            .verifyTransaction(try Self.xcode("xcode-signed-transaction")).get()
        #expect(transaction.transactionId == "0" && transaction.originalTransactionId == "0")
        #expect(transaction.webOrderLineItemId == "0")
        #expect(transaction.productId == "pass.premium")
        #expect(transaction.subscriptionGroupIdentifier == "6F3A93AB")
        #expect(transaction.purchaseDate.millisecondsSince1970 == 1_697_679_936_049)
        #expect(transaction.originalPurchaseDate?.millisecondsSince1970 == 1_697_679_936_049)
        #expect(transaction.expiresDate?.millisecondsSince1970 == 1_700_358_336_049)
        #expect(transaction.quantity == 1 && transaction.type == .autoRenewable)
        #expect(transaction.inAppOwnershipType == .purchased)
        #expect(transaction.signedDate?.millisecondsSince1970 == 1_697_679_936_056)
        #expect(transaction.isUpgraded == false && transaction.offerType == .introductory)
        #expect(transaction.environment == .xcode && transaction.storefront == "USA" && transaction.storefrontId == "143441")
        #expect(transaction.transactionReason == .purchase)
        #expect(transaction.appAccountToken == nil && transaction.revocationDate == nil && transaction.offerIdentifier == nil)
    }

    @Test func xcodeSignedRenewalInfoDecodes() throws {
        let renewal = try Self.verifier(.xcode, bundleId: Self.xcodeBundle)
            .verifyRenewalInfo(try Self.xcode("xcode-signed-renewal-info")).get()
        #expect(renewal.originalTransactionId == "0")
        #expect(renewal.productId == "pass.premium" && renewal.autoRenewProductId == "pass.premium")
        #expect(renewal.autoRenewStatus == .on)
        #expect(renewal.signedDate?.millisecondsSince1970 == 1_697_679_936_711)
        #expect(renewal.environment == .xcode)
        #expect(renewal.recentSubscriptionStartDate?.millisecondsSince1970 == 1_697_679_936_049)
        #expect(renewal.renewalDate?.millisecondsSince1970 == 1_700_358_336_049)
        #expect(renewal.expirationIntent == nil && renewal.isInBillingRetryPeriod == nil && renewal.offerType == nil)
    }

    @Test func xcodeSignedAppTransactionDecodes() throws {
        let app = try Self.verifier(.xcode, bundleId: Self.xcodeBundle)
            .verifyAppTransaction(try Self.xcode("xcode-signed-app-transaction")).get()
        #expect(app.bundleId == Self.xcodeBundle)
        #expect(app.applicationVersion == "1" && app.originalApplicationVersion == "1")
        #expect(app.originalPurchaseDate?.millisecondsSince1970 == -62_135_769_600_000)
        #expect(app.deviceVerification == "cYUsXc53EbYc0pOeXG5d6/31LGHeVGf84sqSN0OrJi5u/j2H89WWKgS8N0hMsMlf")
        #expect(app.deviceVerificationNonce == "48c8b92d-ce0d-4229-bedf-e61b4f9cfc92")
        #expect(app.receiptType == .xcode)
        #expect(app.receiptCreationDate?.millisecondsSince1970 == 1_697_680_122_257)
        #expect(app.appAppleId == nil && app.versionExternalIdentifier == nil && app.preorderDate == nil)
    }

    @Test func xcodeSignedAppTransactionInProductionIsRejected() throws {
        // One self-signed x5c certificate: Apple's verifier refuses it outside Xcode/LocalTesting.
        let result = try Self.verifier(.production, bundleId: Self.xcodeBundle)
            .verifyAppTransaction(try Self.xcode("xcode-signed-app-transaction"))
        #expect(result.failure?.reason == .invalidChainLength)
    }

    @Test func productionVerifierNeedsAppAppleId() {
        #expect(throws: VerifierConfigurationError.self) {
            try SignedDataVerifier(bundleId: "com.example", appAppleId: nil, environment: .production)
        }
    }
}
