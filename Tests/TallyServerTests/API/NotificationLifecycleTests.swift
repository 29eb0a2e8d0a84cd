import Foundation
import TallyCore
import Testing
@testable import TallyServer

/// Every notification type and subtype of the reference, through `EntitlementAPI`, with sandbox-signed
/// notifications: each one's effect shows in `GET /v1/customers/{id}` without the app posting anything.
@Suite("POST /v1/notifications/apple: every type and subtype")
struct NotificationLifecycleTests {
    static let start = ServerFixture.start, day = ServerFixture.day
    static let pro = "market.pro.monthly", plus = "market.plus.monthly"

    /// The first purchase of `chain`, posted by the app for `user`: bought 20 days ago, expires in 10 days.
    static func subscribe(_ fixture: ServerFixture, _ user: String, chain: String, product: String = pro,
                          owned: OwnershipType? = nil) throws -> StoreTransaction {
        var first = Purchases.make(chain, product: product, type: .autoRenewable, at: start - 20 * day,
                                   original: chain, expires: start + 10 * day, group: "6E1A1000")
        first.inAppOwnershipType = owned
        #expect(try fixture.post(first, for: user).status == 200)
        return first
    }

    static func iso(_ date: Date) -> String { ISO8601Milliseconds.string(date) }

    @Test("DID_RENEW extends to the new expiresDate; the history shows the notification", arguments: StoreKind.tested)
    func didRenew(_ kind: StoreKind) throws {
        let fixture = try ServerFixture.make(kind)
        _ = try Self.subscribe(fixture, "u1", chain: "7001")
        fixture.clock.set(Self.start + 12 * Self.day)
        #expect(fixture.customer("u1").subscription["status"] as? String == "expired")
        let renewal = Purchases.monthly("7001-2", original: "7001", at: Self.start + 10 * Self.day,
                                        expires: Self.start + 40 * Self.day)
        let reply = try fixture.notify(.didRenew, uuid: "n-renew", signed: Self.start + 10 * Self.day,
                                       transaction: renewal,
                                       renewal: Renewals.make("7001", signed: Self.start + 10 * Self.day))
        #expect(reply.status == 200)
        #expect(reply.result == "applied")
        let subscription = fixture.customer("u1").subscription
        #expect(subscription["status"] as? String == "subscribed")
        #expect(subscription["expiresDate"] as? String == Self.iso(Self.start + 40 * Self.day))
        #expect(subscription["willRenew"] as? Bool == true)
        let items = fixture.historyItems("u1", kind: "notification")
        #expect(items.count == 1)
        #expect(items.first?["type"] as? String == "DID_RENEW")
        #expect(items.first?["subtype"] is NSNull)
        #expect(items.first?["date"] as? String == Self.iso(Self.start + 10 * Self.day))
        #expect(items.first?["result"] as? String == "applied")
        #expect(fixture.api.metrics.notifications(type: "DID_RENEW", result: "applied") == 1)
    }

    @Test("DID_FAIL_TO_RENEW/GRACE_PERIOD → grace; GRACE_PERIOD_EXPIRED → billing retry; BILLING_RECOVERY → subscribed", arguments: StoreKind.tested)
    func graceRetryAndRecovery(_ kind: StoreKind) throws {
        let fixture = try ServerFixture.make(kind)
        let first = try Self.subscribe(fixture, "u2", chain: "7002")
        fixture.clock.set(Self.start + 11 * Self.day)
        let failed = Self.start + 10 * Self.day
        try fixture.notify(.didFailToRenew, .gracePeriod, signed: failed, transaction: first.signed(failed),
                           renewal: Renewals.make("7002", signed: failed, retry: true, grace: Self.start + 16 * Self.day))
        var subscription = fixture.customer("u2").subscription
        #expect(subscription["status"] as? String == "inGracePeriod")
        #expect(subscription["gracePeriodExpiresDate"] as? String == Self.iso(Self.start + 16 * Self.day))
        #expect(fixture.customer("u2").features.contains("pro"))

        fixture.clock.set(Self.start + 17 * Self.day)
        try fixture.notify(.gracePeriodExpired, signed: Self.start + 16 * Self.day, transaction: first.signed(failed),
                           renewal: Renewals.make("7002", signed: Self.start + 16 * Self.day, retry: true,
                                                  grace: Self.start + 16 * Self.day))
        #expect(fixture.customer("u2").subscription["status"] as? String == "inBillingRetry")
        #expect(!fixture.customer("u2").features.contains("pro"))

        let recovered = Purchases.monthly("7002-2", original: "7002", at: Self.start + 17 * Self.day,
                                          expires: Self.start + 47 * Self.day)
        let reply = try fixture.notify(.didRenew, .billingRecovery, signed: Self.start + 17 * Self.day,
                                       transaction: recovered,
                                       renewal: Renewals.make("7002", signed: Self.start + 17 * Self.day, retry: false))
        #expect(reply.result == "applied")
        subscription = fixture.customer("u2").subscription
        #expect(subscription["status"] as? String == "subscribed")
        #expect(subscription["expiresDate"] as? String == Self.iso(Self.start + 47 * Self.day))
    }

    @Test("DID_FAIL_TO_RENEW without grace is billing retry at once; EXPIRED/BILLING_RETRY then expires it", arguments: StoreKind.tested)
    func retryWithoutGraceThenExpired(_ kind: StoreKind) throws {
        let fixture = try ServerFixture.make(kind)
        let first = try Self.subscribe(fixture, "u3", chain: "7003")
        fixture.clock.set(Self.start + 11 * Self.day)
        let failed = Self.start + 10 * Self.day
        try fixture.notify(.didFailToRenew, signed: failed, transaction: first.signed(failed),
                           renewal: Renewals.make("7003", signed: failed, retry: true))
        #expect(fixture.customer("u3").subscription["status"] as? String == "inBillingRetry")
        fixture.clock.set(Self.start + 71 * Self.day)
        try fixture.notify(.expired, .billingRetry, signed: Self.start + 70 * Self.day,
                           transaction: first.signed(Self.start + 70 * Self.day),
                           renewal: Renewals.make("7003", signed: Self.start + 70 * Self.day, autoRenew: .off,
                                                  retry: false, intent: .billingError))
        let subscription = fixture.customer("u3").subscription
        #expect(subscription["status"] as? String == "expired")
        #expect(subscription["willRenew"] as? Bool == false)
    }

    @Test("EXPIRED with each subtype stops service and will-renew",
          arguments: [("VOLUNTARY", 1), ("PRICE_INCREASE", 3), ("PRODUCT_NOT_FOR_SALE", 4), ("", 5)])
    func expired(subtype: String, intent: Int) throws {
        let fixture = try ServerFixture()
        let first = try Self.subscribe(fixture, "u4", chain: "7004")
        try fixture.notify(.didChangeRenewalStatus, .autoRenewEnabled, signed: Self.start - Self.day,
                           renewal: Renewals.make("7004", signed: Self.start - Self.day))
        #expect(fixture.customer("u4").subscription["willRenew"] as? Bool == true)
        fixture.clock.set(Self.start + 11 * Self.day)
        let ended = Self.start + 10 * Self.day
        let reply = try fixture.notify(
            .expired, subtype.isEmpty ? nil : NotificationSubtype(rawValue: subtype), signed: ended,
            transaction: first.signed(ended),
            renewal: Renewals.make("7004", signed: ended, autoRenew: .off, intent: ExpirationIntent(rawValue: intent)))
        #expect(reply.result == "applied")
        let subscription = fixture.customer("u4").subscription
        #expect(subscription["status"] as? String == "expired")
        #expect(subscription["willRenew"] as? Bool == false)
        #expect(!fixture.customer("u4").features.contains("pro"))
        let item = fixture.historyItems("u4", kind: "notification").first
        #expect(item?["type"] as? String == "EXPIRED")
        #expect(item?["subtype"] as? String == (subtype.isEmpty ? nil : subtype))
    }

    @Test("DID_CHANGE_RENEWAL_PREF: DOWNGRADE sets the pending product, none reverts it, UPGRADE grants at once", arguments: StoreKind.tested)
    func renewalPreference(_ kind: StoreKind) throws {
        let fixture = try ServerFixture.make(kind)
        _ = try Self.subscribe(fixture, "u5", chain: "7005")
        try fixture.notify(.didChangeRenewalPref, .downgrade, signed: Self.start - 2 * Self.day,
                           renewal: Renewals.make("7005", signed: Self.start - 2 * Self.day, next: Self.plus))
        var subscription = fixture.customer("u5").subscription
        #expect(subscription["pendingProductId"] as? String == Self.plus)
        #expect(subscription["productId"] as? String == Self.pro)
        try fixture.notify(.didChangeRenewalPref, signed: Self.start - Self.day,
                           renewal: Renewals.make("7005", signed: Self.start - Self.day))
        subscription = fixture.customer("u5").subscription
        #expect(subscription["pendingProductId"] is NSNull)

        _ = try Self.subscribe(fixture, "u6", chain: "7006", product: Self.plus)
        #expect(!fixture.customer("u6").features.contains("pro"))
        let upgrade = Purchases.make("7006-2", product: Self.pro, type: .autoRenewable, at: Self.start - 60,
                                     original: "7006", expires: Self.start + 30 * Self.day, group: "6E1A1000")
        try fixture.notify(.didChangeRenewalPref, .upgrade, signed: Self.start - 60, transaction: upgrade,
                           renewal: Renewals.make("7006", product: Self.pro, signed: Self.start - 60))
        subscription = fixture.customer("u6").subscription
        #expect(subscription["productId"] as? String == Self.pro)
        #expect(fixture.customer("u6").features.contains("pro"))
    }

    @Test("DID_CHANGE_RENEWAL_STATUS: AUTO_RENEW_DISABLED keeps access without renewing; ENABLED renews again", arguments: StoreKind.tested)
    func renewalStatus(_ kind: StoreKind) throws {
        let fixture = try ServerFixture.make(kind)
        _ = try Self.subscribe(fixture, "u7", chain: "7007")
        try fixture.notify(.didChangeRenewalStatus, .autoRenewDisabled, signed: Self.start - 2 * Self.day,
                           renewal: Renewals.make("7007", signed: Self.start - 2 * Self.day, autoRenew: .off))
        var subscription = fixture.customer("u7").subscription
        #expect(subscription["status"] as? String == "subscribed")
        #expect(subscription["willRenew"] as? Bool == false)
        try fixture.notify(.didChangeRenewalStatus, .autoRenewEnabled, signed: Self.start - Self.day,
                           renewal: Renewals.make("7007", signed: Self.start - Self.day))
        subscription = fixture.customer("u7").subscription
        #expect(subscription["willRenew"] as? Bool == true)
    }

    @Test("REFUND revokes a subscription and claws back coins; REFUND_REVERSED restores; DECLINED and CONSUMPTION_REQUEST change nothing", arguments: StoreKind.tested)
    func refunds(_ kind: StoreKind) throws {
        let fixture = try ServerFixture.make(kind)
        let first = try Self.subscribe(fixture, "u8", chain: "7008")
        let coins = Purchases.coins("7108", at: Self.start - 3 * Self.day)
        #expect(try fixture.post(coins, for: "u8").balance("coins") == "10")

        let asked = try fixture.notify(.consumptionRequest, signed: Self.start - 2 * Self.day, transaction: coins)
        #expect(asked.result == "unchanged")
        let declined = try fixture.notify(.refundDeclined, signed: Self.start - 2 * Self.day, transaction: coins)
        #expect(declined.result == "unchanged")
        #expect(fixture.customer("u8").balance("coins") == "10")

        var refunded = coins
        refunded.revocationDate = Self.start - Self.day
        refunded.revocationReason = .other
        refunded.signedDate = Self.start - Self.day
        #expect(try fixture.notify(.refund, signed: Self.start - Self.day, transaction: refunded).result == "applied")
        #expect(fixture.customer("u8").balance("coins") == "0")

        var revoked = first
        revoked.revocationDate = Self.start - Self.day
        revoked.revocationReason = .other
        revoked.signedDate = Self.start - Self.day
        try fixture.notify(.refund, signed: Self.start - Self.day, transaction: revoked)
        #expect(fixture.customer("u8").subscription["status"] as? String == "revoked")
        #expect(!fixture.customer("u8").features.contains("pro"))

        try fixture.notify(.refundReversed, signed: Self.start - 60, transaction: first.signed(Self.start - 60))
        try fixture.notify(.refundReversed, signed: Self.start - 60, transaction: coins.signed(Self.start - 60))
        #expect(fixture.customer("u8").subscription["status"] as? String == "subscribed")
        #expect(fixture.customer("u8").balance("coins") == "10")
    }

    @Test("REVOKE ends a family member's shared access", arguments: StoreKind.tested)
    func familyRevoke(_ kind: StoreKind) throws {
        let fixture = try ServerFixture.make(kind)
        let shared = try Self.subscribe(fixture, "member", chain: "7009", owned: .familyShared)
        #expect(fixture.customer("member").features.contains("pro"))
        var revoked = shared
        revoked.revocationDate = Self.start - 60
        revoked.revocationReason = .other
        revoked.signedDate = Self.start - 60
        #expect(try fixture.notify(.revoke, signed: Self.start - 60, transaction: revoked).result == "applied")
        #expect(fixture.customer("member").subscription["status"] as? String == "revoked")
        #expect(!fixture.customer("member").features.contains("pro"))
    }

    @Test("RENEWAL_EXTENDED moves the expiry; RENEWAL_EXTENSION/SUMMARY is recorded; /FAILURE changes nothing", arguments: StoreKind.tested)
    func renewalExtension(_ kind: StoreKind) throws {
        let fixture = try ServerFixture.make(kind)
        var extended = try Self.subscribe(fixture, "u10", chain: "7010")
        extended.expiresDate = Self.start + 20 * Self.day
        extended.signedDate = Self.start - 60
        #expect(try fixture.notify(.renewalExtended, signed: Self.start - 60, transaction: extended).result == "applied")
        #expect(fixture.customer("u10").subscription["expiresDate"] as? String == Self.iso(Self.start + 20 * Self.day))

        let failure = try fixture.notify(.renewalExtension, .failure, signed: Self.start - 30, transaction: extended)
        #expect(failure.result == "unchanged")

        let summary = try fixture.signer.sign(ServerNotification(
            notificationType: .renewalExtension, subtype: .summary, notificationUUID: "n-summary",
            signedDate: Self.start - 10,
            summary: NotificationSummary(environment: .sandbox, appAppleId: 1_234_567_890, bundleId: "com.example.market",
                                         productId: Self.pro, requestIdentifier: "req-1", succeededCount: 10,
                                         failedCount: 1)))
        let reply = fixture.postNotification(summary)
        #expect(reply.status == 200)
        #expect(reply.result == "recorded")
        #expect(fixture.api.metrics.notifications(type: "RENEWAL_EXTENSION", result: "recorded") == 1)
    }

    @Test("PRICE_INCREASE: PENDING then ACCEPTED is kept as the chain's consent state; access unchanged", arguments: StoreKind.tested)
    func priceIncrease(_ kind: StoreKind) throws {
        let fixture = try ServerFixture.make(kind)
        _ = try Self.subscribe(fixture, "u11", chain: "7011")
        try fixture.notify(.priceIncrease, .pending, signed: Self.start - 2 * Self.day,
                           renewal: Renewals.make("7011", signed: Self.start - 2 * Self.day, priceIncrease: .noResponse))
        #expect(try fixture.store.customerState("u11").renewalInfos.first?.priceIncreaseStatus == .noResponse)
        try fixture.notify(.priceIncrease, .accepted, signed: Self.start - Self.day,
                           renewal: Renewals.make("7011", signed: Self.start - Self.day, priceIncrease: .consented))
        #expect(try fixture.store.customerState("u11").renewalInfos.first?.priceIncreaseStatus == .consented)
        #expect(fixture.customer("u11").subscription["status"] as? String == "subscribed")
    }

    @Test("SUBSCRIBED, OFFER_REDEEMED and ONE_TIME_CHARGE reach the customer who minted the appAccountToken", arguments: StoreKind.tested)
    func purchasesByToken(_ kind: StoreKind) throws {
        let fixture = try ServerFixture.make(kind)
        let token = "5B2D0F4E-3C1A-4B6D-9E8F-7A6B5C4D3E2F"
        #expect(try fixture.store.mintAccountToken(for: "buyer", candidate: token.lowercased()) == token.lowercased())

        let bought = Purchases.make("7012", product: Self.pro, type: .autoRenewable, at: Self.start - 60,
                                    expires: Self.start + 30 * Self.day, group: "6E1A1000", token: token)
        let subscribed = try fixture.notify(.subscribed, .initialBuy, signed: Self.start - 60, transaction: bought,
                                            renewal: Renewals.make("7012", signed: Self.start - 60, token: token))
        #expect(subscribed.result == "applied")
        #expect(fixture.customer("buyer").subscription["status"] as? String == "subscribed")

        var offer = Renewals.make("7012", signed: Self.start - 30, token: token)
        offer.offerType = .promotional
        offer.offerIdentifier = "winback-1"
        #expect(try fixture.notify(.offerRedeemed, signed: Self.start - 30, renewal: offer).result == "applied")
        #expect(try fixture.store.customerState("buyer").renewalInfos.first?.offerIdentifier == "winback-1")

        let coins = Purchases.make("7212", product: "market.coins.10", type: .consumable, at: Self.start - 20,
                                   token: token)
        #expect(try fixture.notify(.oneTimeCharge, signed: Self.start - 20, transaction: coins).result == "applied")
        #expect(fixture.customer("buyer").balance("coins") == "10")
        #expect(fixture.historyItems("buyer", kind: "notification").map { $0["type"] as? String }
            == ["ONE_TIME_CHARGE", "OFFER_REDEEMED", "SUBSCRIBED"])
    }

    @Test("A notification whose appAccountToken was only posted, never minted, waits for its chain's poster", arguments: StoreKind.tested)
    func aPostedTokenNamesNoOneForANotification(_ kind: StoreKind) throws {
        let fixture = try ServerFixture.make(kind)
        let token = "5b2d0f4e-3c1a-4b6d-9e8f-7a6b5c4d3e30"
        let cheap = Purchases.make("7113", product: "market.premium", type: .nonConsumable, at: Self.start - 60,
                                   token: token)
        #expect(try fixture.post(cheap, for: "attacker").status == 200)
        let coins = Purchases.make("7213", product: "market.coins.10", type: .consumable, at: Self.start - 20,
                                   token: token)
        #expect(try fixture.notify(.oneTimeCharge, signed: Self.start - 20, transaction: coins).result == "pending")
        #expect((fixture.customer("attacker").balance("coins") ?? "0") == "0")
        #expect(try fixture.post(coins, for: "victim").status == 200)
        #expect(fixture.customer("victim").balance("coins") == "10")
    }

    @Test("TEST is recorded and nothing else; an unknown type is stored and answered 200 without touching state", arguments: StoreKind.tested)
    func testAndUnknownTypes(_ kind: StoreKind) throws {
        let fixture = try ServerFixture.make(kind)
        let test = try fixture.signer.sign(ServerNotification(
            notificationType: .test, notificationUUID: "n-test", signedDate: Self.start,
            data: NotificationData(bundleId: "com.example.market", environment: .sandbox)))
        let reply = fixture.postNotification(test)
        #expect(reply.status == 200)
        #expect(reply.result == "recorded")

        _ = try Self.subscribe(fixture, "u13", chain: "7013")
        let before = fixture.customer("u13").customer["subscriptions"] as? [[String: Any]]
        var changed = Purchases.monthly("7013", original: "7013", at: Self.start - 20 * Self.day,
                                        expires: Self.start + 90 * Self.day)
        changed.signedDate = Self.start
        let unknown = try fixture.notify(NotificationType(rawValue: "SOMETHING_NEW"), signed: Self.start,
                                         transaction: changed)
        #expect(unknown.status == 200)
        #expect(unknown.result == "recorded")
        let after = fixture.customer("u13").customer["subscriptions"] as? [[String: Any]]
        #expect(after?.first?["expiresDate"] as? String == before?.first?["expiresDate"] as? String)
        #expect(fixture.api.metrics.notifications(type: "SOMETHING_NEW", result: "recorded") == 1)
        #expect(fixture.api.metrics.notifications(type: "TEST", result: "recorded") == 1)
    }

    @Test("SUBSCRIBED/RESUBSCRIBE grants again after expiry; OFFER_REDEEMED/UPGRADE grants now, /DOWNGRADE is pending", arguments: StoreKind.tested)
    func resubscribeAndOfferChanges(_ kind: StoreKind) throws {
        let fixture = try ServerFixture.make(kind)
        _ = try Self.subscribe(fixture, "u14", chain: "7014")
        fixture.clock.set(Self.start + 40 * Self.day)
        #expect(fixture.customer("u14").subscription["status"] as? String == "expired")
        let again = Purchases.monthly("7014-2", original: "7014", at: Self.start + 39 * Self.day,
                                      expires: Self.start + 69 * Self.day)
        #expect(try fixture.notify(.subscribed, .resubscribe, signed: Self.start + 39 * Self.day, transaction: again,
                                   renewal: Renewals.make("7014", signed: Self.start + 39 * Self.day)).result == "applied")
        #expect(fixture.customer("u14").subscription["status"] as? String == "subscribed")

        _ = try Self.subscribe(fixture, "u15", chain: "7015", product: Self.plus)
        let upgraded = Purchases.make("7015-2", product: Self.pro, type: .autoRenewable, at: Self.start + 39 * Self.day,
                                      original: "7015", expires: Self.start + 69 * Self.day, group: "6E1A1000")
        try fixture.notify(.offerRedeemed, .upgrade, signed: Self.start + 39 * Self.day, transaction: upgraded,
                           renewal: Renewals.make("7015", product: Self.pro, signed: Self.start + 39 * Self.day))
        #expect(fixture.customer("u15").subscription["productId"] as? String == Self.pro)
        #expect(fixture.customer("u15").features.contains("pro"))

        try fixture.notify(.offerRedeemed, .downgrade, signed: Self.start + 39.5 * Self.day,
                           renewal: Renewals.make("7015", product: Self.pro, signed: Self.start + 39.5 * Self.day,
                                                  next: Self.plus))
        #expect(fixture.customer("u15").subscription["pendingProductId"] as? String == Self.plus)
        #expect(fixture.customer("u15").subscription["productId"] as? String == Self.pro)
    }

    @Test("DID_CHANGE_RENEWAL_STATUS without subtype (a cancel after a price notice) stops renewing; EXTERNAL_PURCHASE_TOKEN and RESCIND_CONSENT are recorded", arguments: StoreKind.tested)
    func cancelAndRecordedOnlyTypes(_ kind: StoreKind) throws {
        let fixture = try ServerFixture.make(kind)
        _ = try Self.subscribe(fixture, "u16", chain: "7016")
        try fixture.notify(.didChangeRenewalStatus, signed: Self.start - Self.day,
                           renewal: Renewals.make("7016", signed: Self.start - Self.day, autoRenew: .off,
                                                  priceIncrease: .noResponse))
        #expect(fixture.customer("u16").subscription["willRenew"] as? Bool == false)
        #expect(fixture.customer("u16").subscription["status"] as? String == "subscribed")

        let token = try fixture.signer.sign(ServerNotification(
            notificationType: .externalPurchaseToken, subtype: .unreported, notificationUUID: "n-token",
            signedDate: Self.start,
            externalPurchaseToken: ExternalPurchaseToken(externalPurchaseId: "SANDBOX_b3f1", tokenCreationDate: Self.start,
                                                         appAppleId: 1_234_567_890, bundleId: "com.example.market")))
        let tokenReply = fixture.postNotification(token)
        #expect(tokenReply.status == 200)
        #expect(tokenReply.result == "recorded")
        let consent = try fixture.signer.sign(ServerNotification(
            notificationType: .rescindConsent, notificationUUID: "n-consent", signedDate: Self.start,
            appData: AppData(appAppleId: 1_234_567_890, bundleId: "com.example.market", environment: .sandbox)))
        let consentReply = fixture.postNotification(consent)
        #expect(consentReply.status == 200)
        #expect(consentReply.result == "recorded")
    }
}
