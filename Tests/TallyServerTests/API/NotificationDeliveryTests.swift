import Foundation
import TallyCore
import TallySandbox
@testable import TallyServer
import TallyStorage
import Testing

/// Delivery rules of the notification route: duplicates, ordering, unowned chains, refusals, store failures.
@Suite("POST /v1/notifications/apple: delivery")
struct NotificationDeliveryTests {
    static let start = ServerFixture.start, day = ServerFixture.day

    static func firstPurchase(_ chain: String) -> StoreTransaction {
        Purchases.monthly(chain, original: chain, at: start - 20 * day, expires: start + 10 * day)
    }

    @Test("a retry with the same notificationUUID answers 200 duplicate and changes nothing", arguments: StoreKind.tested)
    func duplicate(_ kind: StoreKind) throws {
        let fixture = try ServerFixture.make(kind)
        #expect(try fixture.post(Self.firstPurchase("8001"), for: "d1").status == 200)
        let jws = try fixture.signedNotification(
            .didChangeRenewalStatus, .autoRenewDisabled, uuid: "n-dup", signed: Self.start - Self.day,
            renewal: Renewals.make("8001", signed: Self.start - Self.day, autoRenew: .off))
        let first = fixture.postNotification(jws)
        #expect(first.result == "applied")
        let version = try fixture.store.customerState("d1").version
        let again = fixture.postNotification(jws)
        #expect(again.status == 200)
        #expect(again.result == "duplicate")
        #expect(try fixture.store.customerState("d1").version == version)
        #expect(fixture.historyItems("d1", kind: "notification").count == 1)
        #expect(fixture.api.metrics.notifications(type: "DID_CHANGE_RENEWAL_STATUS", result: "duplicate") == 1)
    }

    @Test("an older notification arriving after a newer one changes nothing (renewal info and transaction)", arguments: StoreKind.tested)
    func outOfOrder(_ kind: StoreKind) throws {
        let fixture = try ServerFixture.make(kind)
        #expect(try fixture.post(Self.firstPurchase("8002"), for: "d2").status == 200)
        fixture.clock.set(Self.start + 11 * Self.day)
        let renewed = Purchases.monthly("8002-2", original: "8002", at: Self.start + 10 * Self.day,
                                        expires: Self.start + 40 * Self.day)
        let newer = try fixture.notify(.didRenew, signed: Self.start + 10 * Self.day, transaction: renewed,
                                       renewal: Renewals.make("8002", signed: Self.start + 10 * Self.day))
        #expect(newer.result == "applied")
        // Signed before the renewal, retried by Apple and delivered after it.
        var olderCopy = renewed
        olderCopy.expiresDate = Self.start + 12 * Self.day
        olderCopy.signedDate = Self.start + 9 * Self.day
        let older = try fixture.notify(.didChangeRenewalStatus, .autoRenewDisabled, signed: Self.start + 9 * Self.day,
                                       transaction: olderCopy,
                                       renewal: Renewals.make("8002", signed: Self.start + 9 * Self.day, autoRenew: .off))
        #expect(older.status == 200)
        #expect(older.result == "unchanged")
        let subscription = fixture.customer("d2").subscription
        #expect(subscription["willRenew"] as? Bool == true)
        #expect(subscription["expiresDate"] as? String == ISO8601Milliseconds.string(Self.start + 40 * Self.day))
        #expect(fixture.historyItems("d2", kind: "notification").map { $0["result"] as? String }
            == ["applied", "unchanged"])
    }

    @Test("a chain nobody owns waits, stored; the first post of the chain adopts and applies it", arguments: StoreKind.tested)
    func unownedChainAdoptedLater(_ kind: StoreKind) throws {
        let fixture = try ServerFixture.make(kind)
        let renewed = Purchases.monthly("8003-2", original: "8003", at: Self.start - Self.day,
                                        expires: Self.start + 29 * Self.day)
        let waiting = try fixture.notify(.didRenew, uuid: "n-wait", signed: Self.start - Self.day,
                                         transaction: renewed,
                                         renewal: Renewals.make("8003", signed: Self.start - Self.day, autoRenew: .off))
        #expect(waiting.status == 200)
        #expect(waiting.result == "pending")
        fixture.clock.advance(by: 90)
        let metrics = fixture.send("GET", "/metrics", key: nil).text
        #expect(metrics.contains("tally_notifications_oldest_pending_age_seconds 90"), "\(metrics)")
        #expect(metrics.contains(#"tally_notifications_total{type="DID_RENEW",result="pending"} 1"#))

        // The app posts the first purchase of the chain (expired by now without the renewal).
        var first = Self.firstPurchase("8003")
        first.expiresDate = Self.start - Self.day
        let posted = try fixture.post(first, for: "late")
        #expect(posted.status == 200)
        let subscription = posted.customer["subscriptions"] as? [[String: Any]]
        #expect(subscription?.first?["status"] as? String == "subscribed")
        #expect(subscription?.first?["willRenew"] as? Bool == false)
        #expect(fixture.customer("late").subscription["expiresDate"] as? String
            == ISO8601Milliseconds.string(Self.start + 29 * Self.day))
        #expect(fixture.historyItems("late", kind: "notification").first?["result"] as? String == "applied")
        #expect(try fixture.store.oldestPendingNotificationDate() == nil)
        #expect(fixture.send("GET", "/metrics", key: nil).text
            .contains("tally_notifications_oldest_pending_age_seconds 0"))
    }

    @Test("one write adopting two chains whose ids differ only by normalisation adopts both (ids as bytes)", arguments: StoreKind.tested)
    func lookAlikeChainsAdoptedTogether(_ kind: StoreKind) throws {
        let fixture = try ServerFixture.make(kind)
        let nfc = "caf\u{E9}", nfd = "cafe\u{301}"
        #expect(nfc == nfd, "Swift's String equality is canonical: the two ids compare equal as Strings")
        for (chain, uuid) in [(nfc, "n-nfc"), (nfd, "n-nfd")] {
            let renewed = Purchases.monthly(chain + "-2", original: chain, at: Self.start - Self.day,
                                            expires: Self.start + 29 * Self.day)
            let waiting = try fixture.notify(.didRenew, uuid: uuid, signed: Self.start - Self.day, transaction: renewed)
            #expect(waiting.result == "pending")
        }
        let firsts = [nfc, nfd].map { StoredTransaction(transaction: Self.firstPurchase($0), source: .signedTransaction) }
        _ = try fixture.store.record(firsts, for: "both", policy: .transfer, at: Self.start)
        #expect(try fixture.store.oldestPendingNotificationDate() == nil, "each chain's notification is adopted")
        #expect(fixture.historyItems("both", kind: "notification").count == 2)
    }

    @Test("an unverifiable payload is 422 and nothing is stored", arguments: ["untrusted", "bundle", "nested", "garbage"])
    func unverifiable(kind: String) throws {
        let fixture = try ServerFixture()
        let chain = Purchases.monthly("8004-2", original: "8004", at: Self.start, expires: Self.start + 30 * Self.day)
        let jws: String
        switch kind {
        case "untrusted":
            jws = try fixture.signedNotification(.didRenew, signed: Self.start, transaction: chain,
                                                 signer: try Signing.untrustedAuthority().signer())
        case "bundle":
            jws = try fixture.signedNotification(.didRenew, signed: Self.start, transaction: chain,
                                                 bundleId: "com.example.other")
        case "nested":
            // The outer payload is signed by the trusted signer; the nested transaction by another.
            let other = try Signing.untrustedAuthority().signer()
            jws = try fixture.signer.sign(ServerNotification(
                notificationType: .didRenew, notificationUUID: "n-nested", signedDate: Self.start,
                data: NotificationData(appAppleId: 1_234_567_890, bundleId: "com.example.market",
                                       environment: .sandbox, signedTransactionInfo: try other.signTransaction(chain))))
        default:
            jws = "not.a.jws"
        }
        let reply = fixture.postNotification(jws)
        #expect(reply.status == 422)
        #expect(reply.errorCode == "verification_failed")
        #expect(try fixture.store.oldestPendingNotificationDate() == nil, "a valid one would have been pending")
        #expect(fixture.api.metrics.verifications(kind: "notification", result: reply.errorReason ?? "") == 1)
    }

    @Test("a verified notification without a notificationUUID is 422 invalid_notification, nothing stored", arguments: StoreKind.tested)
    func missingUUID(_ kind: StoreKind) throws {
        let fixture = try ServerFixture.make(kind)
        let jws = try fixture.signer.sign(ServerNotification(
            notificationType: .didRenew, signedDate: Self.start,
            data: NotificationData(appAppleId: 1_234_567_890, bundleId: "com.example.market", environment: .sandbox,
                                   signedTransactionInfo: try fixture.signer.signTransaction(Self.firstPurchase("8005")))))
        let reply = fixture.postNotification(jws)
        #expect(reply.status == 422)
        #expect(reply.errorCode == "invalid_notification")
        #expect(try fixture.store.oldestPendingNotificationDate() == nil)
    }

    @Test("a missing or non-string signedPayload is 400; no key is needed, a GET is 405", arguments: StoreKind.tested)
    func badBodies(_ kind: StoreKind) throws {
        let fixture = try ServerFixture.make(kind)
        #expect(fixture.send("POST", "/v1/notifications/apple", key: nil, body: "{}").errorCode == "invalid_request")
        #expect(fixture.send("POST", "/v1/notifications/apple", key: nil, body: #"{"signedPayload":1}"#).status == 400)
        #expect(fixture.send("POST", "/v1/notifications/apple", key: nil, body: "[").errorCode == "malformed_json")
        #expect(fixture.send("GET", "/v1/notifications/apple", key: nil).status == 405)
    }

    @Test("a store failure answers 503 so Apple retries; the retry is applied once", arguments: StoreKind.tested)
    func storeFailureIsRetried(_ kind: StoreKind) throws {
        let fixture = try ServerFixture.make(kind)
        #expect(try fixture.post(Self.firstPurchase("8006"), for: "d6").status == 200)
        let jws = try fixture.signedNotification(
            .didChangeRenewalStatus, .autoRenewDisabled, uuid: "n-retry", signed: Self.start - Self.day,
            renewal: Renewals.make("8006", signed: Self.start - Self.day, autoRenew: .off))
        fixture.store.setFailing(true)
        let failed = fixture.postNotification(jws)
        fixture.store.setFailing(false)
        #expect(failed.status == 503)
        #expect(fixture.customer("d6").subscription["willRenew"] as? Bool == false, "no renewal info yet")
        #expect(fixture.historyItems("d6", kind: "notification").isEmpty)
        #expect(fixture.postNotification(jws).result == "applied")
        #expect(fixture.postNotification(jws).result == "duplicate")
        #expect(fixture.historyItems("d6", kind: "notification").count == 1)
        #expect(fixture.api.metrics.notifications(type: "DID_CHANGE_RENEWAL_STATUS", result: "failed") == 1)
    }

    @Test("the state cache drops a customer's entry when a notification changes them", arguments: StoreKind.tested)
    func cacheIsInvalidated(_ kind: StoreKind) throws {
        let fixture = try ServerFixture.make(kind)
        #expect(try fixture.post(Self.firstPurchase("8007"), for: "d7").status == 200)
        #expect(fixture.customer("d7").subscription["willRenew"] as? Bool == false)
        try fixture.notify(.didChangeRenewalStatus, .autoRenewEnabled, signed: Self.start - Self.day,
                           renewal: Renewals.make("8007", signed: Self.start - Self.day))
        #expect(fixture.customer("d7").subscription["willRenew"] as? Bool == true)
    }
}
