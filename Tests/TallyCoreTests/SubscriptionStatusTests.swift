import Foundation
import Testing
@testable import TallyCore

private typealias F = RulesFixtures

/// One subscription scenario and the group state expected at `now`.
struct SubscriptionCase: Sendable, CustomTestStringConvertible {
    let name: String
    let transactions: [StoreTransaction]
    var renewals: [RenewalInfo] = []
    let now: Date
    let status: SubscriptionState
    let productId: String
    var willRenew = false
    var pending: String?
    var expires: Date?

    var testDescription: String { name }
}

private let oneMonth = F.month.advance(F.start)
private let silver = F.period("t1", "plus.silver.month", from: F.start)
private let gold = F.period("t1", "plus.gold.month", from: F.start)

private let cases: [SubscriptionCase] = [
    SubscriptionCase(name: "active and renewing", transactions: [silver],
                     renewals: [F.renewal("t1", "plus.silver.month")], now: F.day(10),
                     status: .subscribed, productId: "plus.silver.month", willRenew: true, expires: oneMonth),
    SubscriptionCase(name: "auto-renew off keeps access until expiry", transactions: [silver],
                     renewals: [F.renewal("t1", "plus.silver.month", autoRenew: false)], now: F.day(10),
                     status: .subscribed, productId: "plus.silver.month"),
    SubscriptionCase(name: "auto-renew off, then expired", transactions: [silver],
                     renewals: [F.renewal("t1", "plus.silver.month", autoRenew: false)], now: F.day(31),
                     status: .expired, productId: "plus.silver.month", expires: oneMonth),
    SubscriptionCase(name: "expired at exactly expiresDate", transactions: [silver], now: oneMonth,
                     status: .expired, productId: "plus.silver.month"),
    SubscriptionCase(name: "billing retry without grace", transactions: [silver],
                     renewals: [F.renewal("t1", "plus.silver.month", billingRetry: true)], now: F.day(31),
                     status: .inBillingRetry, productId: "plus.silver.month", willRenew: true),
    SubscriptionCase(name: "billing retry within grace", transactions: [silver],
                     renewals: [F.renewal("t1", "plus.silver.month", billingRetry: true, grace: F.day(46))],
                     now: F.day(35), status: .inGracePeriod, productId: "plus.silver.month", willRenew: true),
    SubscriptionCase(name: "grace expired, still in billing retry", transactions: [silver],
                     renewals: [F.renewal("t1", "plus.silver.month", billingRetry: true, grace: F.day(46))],
                     now: F.day(47), status: .inBillingRetry, productId: "plus.silver.month", willRenew: true),
    SubscriptionCase(name: "grace date without the retry flag is not grace", transactions: [silver],
                     renewals: [F.renewal("t1", "plus.silver.month", billingRetry: false, grace: F.day(46))],
                     now: F.day(35), status: .expired, productId: "plus.silver.month"),
    SubscriptionCase(name: "recovered by a new renewal", transactions: [
        silver, F.period("t2", "plus.silver.month", from: F.day(33), original: "t1"),
    ], renewals: [F.renewal("t1", "plus.silver.month", billingRetry: false)], now: F.day(35),
                     status: .subscribed, productId: "plus.silver.month", willRenew: true,
                     expires: F.month.advance(F.day(33))),
    SubscriptionCase(name: "refund of the period in force", transactions: [
        F.period("t1", "plus.silver.month", from: F.start, revokedAt: F.day(5)),
    ], renewals: [F.renewal("t1", "plus.silver.month")], now: F.day(10),
                     status: .revoked, productId: "plus.silver.month"),
    SubscriptionCase(name: "refund dated after now does not count yet", transactions: [
        F.period("t1", "plus.silver.month", from: F.start, revokedAt: F.day(20)),
    ], now: F.day(10), status: .subscribed, productId: "plus.silver.month"),
    SubscriptionCase(name: "refund of an earlier period, renewal running", transactions: [
        F.period("t1", "plus.silver.month", from: F.start, revokedAt: F.day(20)),
        F.period("t2", "plus.silver.month", from: oneMonth, original: "t1"),
    ], now: F.day(40), status: .subscribed, productId: "plus.silver.month"),
    SubscriptionCase(name: "upgrade flagged isUpgraded takes effect at once", transactions: [
        F.period("t1", "plus.silver.month", from: F.start, upgraded: true),
        F.period("t2", "plus.gold.month", from: F.day(10), original: "t1"),
    ], renewals: [F.renewal("t1", "plus.gold.month")], now: F.day(12),
                     status: .subscribed, productId: "plus.gold.month", willRenew: true),
    SubscriptionCase(name: "unflagged upgrade supersedes a longer lower-level period", transactions: [
        F.period("t1", "plus.silver.year", from: F.start),
        F.period("t2", "plus.gold.month", from: F.day(30), original: "t1"),
    ], now: F.day(35), status: .subscribed, productId: "plus.gold.month"),
    SubscriptionCase(name: "superseded period does not come back when the upgrade lapses", transactions: [
        F.period("t1", "plus.silver.year", from: F.start),
        F.period("t2", "plus.gold.month", from: F.day(30), original: "t1"),
    ], renewals: [F.renewal("t1", "plus.gold.month", autoRenew: false)], now: F.day(70),
                     status: .expired, productId: "plus.gold.month"),
    SubscriptionCase(name: "downgrade pending until the renewal", transactions: [
        gold, F.period("t2", "plus.silver.month", from: oneMonth, original: "t1"),
    ], renewals: [F.renewal("t1", "plus.silver.month")], now: F.day(29),
                     status: .subscribed, productId: "plus.gold.month", willRenew: true, pending: "plus.silver.month"),
    SubscriptionCase(name: "downgrade applied at the renewal", transactions: [
        gold, F.period("t2", "plus.silver.month", from: oneMonth, original: "t1"),
    ], renewals: [F.renewal("t1", "plus.silver.month")], now: F.day(35),
                     status: .subscribed, productId: "plus.silver.month", willRenew: true),
    SubscriptionCase(name: "crossgrade of the same period takes effect at once", transactions: [
        silver, F.period("t2", "plus.silver.month2", from: F.day(10), original: "t1"),
    ], now: F.day(12), status: .subscribed, productId: "plus.silver.month2"),
    SubscriptionCase(name: "crossgrade to another period pending until the renewal", transactions: [gold],
                     renewals: [F.renewal("t1", "plus.gold.month", next: "plus.gold.year")], now: F.day(10),
                     status: .subscribed, productId: "plus.gold.month", willRenew: true, pending: "plus.gold.year"),
    SubscriptionCase(name: "crossgrade to another period applied at the renewal", transactions: [
        gold, F.period("t2", "plus.gold.year", from: oneMonth, original: "t1"),
    ], renewals: [F.renewal("t1", "plus.gold.year")], now: F.day(40),
                     status: .subscribed, productId: "plus.gold.year", willRenew: true),
    SubscriptionCase(name: "early-dated downgrade renewal waits for the period to end", transactions: [
        gold, F.period("t2", "plus.silver.month", from: oneMonth.addingTimeInterval(-3_600), original: "t1"),
    ], renewals: [F.renewal("t1", "plus.silver.month")], now: oneMonth.addingTimeInterval(-600),
                     status: .subscribed, productId: "plus.gold.month", willRenew: true, pending: "plus.silver.month"),
    SubscriptionCase(name: "early-dated downgrade renewal in force once the period ended", transactions: [
        gold, F.period("t2", "plus.silver.month", from: oneMonth.addingTimeInterval(-3_600), original: "t1"),
    ], renewals: [F.renewal("t1", "plus.silver.month")], now: oneMonth.addingTimeInterval(600),
                     status: .subscribed, productId: "plus.silver.month", willRenew: true),
    SubscriptionCase(name: "early-dated crossgrade to a year waits for the month to end", transactions: [
        gold, F.period("t2", "plus.gold.year", from: oneMonth.addingTimeInterval(-3_600), original: "t1"),
    ], now: oneMonth.addingTimeInterval(-600), status: .subscribed, productId: "plus.gold.month"),
    SubscriptionCase(name: "pending product hidden when auto-renew is off", transactions: [gold],
                     renewals: [F.renewal("t1", "plus.gold.month", next: "plus.silver.month", autoRenew: false)],
                     now: F.day(10), status: .subscribed, productId: "plus.gold.month"),
]

@Suite("Subscription status")
struct SubscriptionStatusTests {
    @Test(arguments: cases)
    func groupState(_ scenario: SubscriptionCase) throws {
        let state = F.state(scenario.transactions, renewals: scenario.renewals, at: scenario.now)
        let subscription = try #require(state.subscriptions.first { $0.groupId == "plus" })
        #expect(state.subscriptions.count == 1)
        #expect(subscription.status == scenario.status)
        #expect(subscription.productId == scenario.productId)
        #expect(subscription.willRenew == scenario.willRenew)
        #expect(subscription.pendingProductId == scenario.pending)
        if let expires = scenario.expires { #expect(subscription.expiresDate == expires) }
        #expect(state.isEntitled("basic") == scenario.status.isEntitled)
        let premium = scenario.status.isEntitled && scenario.productId.hasPrefix("plus.gold")
        #expect(state.isEntitled("premium") == premium)
    }

    @Test func graceEntitlementEndsAtGraceDate() throws {
        let state = F.state([silver], renewals: [F.renewal("t1", "plus.silver.month", billingRetry: true,
                                                              grace: F.day(46))], at: F.day(35))
        let basic = try #require(state.entitlements.first { $0.feature == "basic" })
        #expect(basic.expiresDate == F.day(46))
        #expect(state.subscriptions.first?.gracePeriodExpiresDate == F.day(46))
    }

    @Test func groupsAreIndependent() {
        let state = F.state([silver, F.period("o1", "other.month", from: F.day(40))], at: F.day(45))
        #expect(state.subscriptions.map(\.groupId) == ["other", "plus"])
        #expect(state.subscriptions.map(\.status) == [.subscribed, .expired])
        #expect(state.isEntitled("extras"))
        #expect(!state.isEntitled("basic"))
    }

    @Test func renewalInfoOfAnotherChainInTheGroupIsUsed() throws {
        let renewed = F.period("t9", "plus.silver.month", from: F.start, original: "t9")
        let state = F.state([renewed], renewals: [F.renewal("elsewhere", "plus.silver.month"),
                                                  F.renewal("t9", "plus.silver.month", billingRetry: true)],
                            at: F.day(31))
        #expect(try #require(state.subscriptions.first).status == .inBillingRetry)
    }

    @Test func purchasesAfterNowAreInvisible() {
        #expect(F.state([F.period("t1", "plus.gold.month", from: F.day(5))], at: F.day(1)).subscriptions.isEmpty)
    }
}
