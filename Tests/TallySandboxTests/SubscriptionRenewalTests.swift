import Foundation
import Testing
import TallyCore
@testable import TallySandbox

@Suite("Sandbox subscription renewals")
struct SubscriptionRenewalTests {
    @Test("a monthly subscription renews three times, then auto-renew off, then it expires")
    func renewThreeTimesThenExpire() throws {
        var sandbox = Market.sandbox()
        let first = try sandbox.purchase(Market.proMonthly, device: "iphone").requireTransaction()
        _ = try sandbox.restore(device: "ipad")
        #expect(first.expiresDate == Market.date(Market.start, plus: 1, .month))
        #expect(first.subscriptionGroupIdentifier == "pro")
        #expect(first.webOrderLineItemId != nil)

        sandbox.advance(by: try SandboxDuration(parsing: "3M"))
        let chain = sandbox.transactions()
        #expect(chain.count == 4)
        for (previous, renewal) in zip(chain, chain.dropFirst()) {
            #expect(renewal.originalTransactionId == first.transactionId)
            #expect(renewal.originalPurchaseDate == first.purchaseDate)
            #expect(renewal.transactionReason == .renewal)
            #expect(renewal.purchaseDate == previous.expiresDate)
            #expect(renewal.expiresDate == Market.date(renewal.purchaseDate, plus: 1, .month))
            #expect(renewal.webOrderLineItemId != previous.webOrderLineItemId)
            #expect(renewal.signedDate == renewal.purchaseDate)
        }
        #expect(Set(chain.map(\.transactionId)).count == 4)
        #expect(sandbox.now == Market.date(Market.start, plus: 3, .month))
        let renewals = Array(chain.dropFirst().map(\.transactionId))
        #expect(sandbox.unfinished(device: "ipad").map(\.transactionId) == renewals)
        #expect(sandbox.unfinished(device: "iphone").map(\.transactionId) == [first.transactionId] + renewals)
        #expect(sandbox.state().subscriptions.first?.status == .subscribed)
        #expect(sandbox.state().isEntitled("pro"))

        try sandbox.setAutoRenew(productId: Market.proMonthly, enabled: false)
        #expect(sandbox.renewalInfos().first?.autoRenewStatus == .off)
        sandbox.advance(by: try SandboxDuration(parsing: "1M"))
        #expect(sandbox.transactions().count == 4)
        let info = try #require(sandbox.renewalInfos().first)
        #expect(info.expirationIntent == .customerCancelled)
        #expect(info.originalTransactionId == first.transactionId)
        let expired = try #require(sandbox.events.last { $0.kind == .expired })
        #expect(expired.detail == "VOLUNTARY")
        #expect(expired.date == Market.date(Market.start, plus: 4, .month))
        #expect(expired.originalTransactionId == first.transactionId)
        #expect(sandbox.state().subscriptions.first?.status == .expired)
        #expect(!sandbox.state().isEntitled("pro"))
    }

    @Test("a year over a weekly subscription is 52 renewals, each a calendar week")
    func weeklyForAYear() throws {
        var sandbox = Market.sandbox()
        _ = try sandbox.purchase(Market.newsWeekly).requireTransaction()
        sandbox.advance(by: try SandboxDuration(parsing: "1y"))
        let chain = sandbox.transactions()
        #expect(chain.count == 53)
        #expect(chain.last?.purchaseDate == Market.date(Market.start, plus: 52, .week))
        #expect(sandbox.renewalInfos().first?.renewalDate == Market.date(Market.start, plus: 53, .week))
    }

    @Test("billing retry with a grace period, then recovery renews from the recovery moment")
    func graceThenRecovery() throws {
        var sandbox = Market.sandbox()
        sandbox.set(.billingIssue, enabled: true)
        sandbox.set(.gracePeriod, enabled: true)
        let first = try sandbox.purchase(Market.proMonthly).requireTransaction()
        sandbox.advance(by: try SandboxDuration(parsing: "1M"))
        let renewalDate = Market.date(Market.start, plus: 1, .month)
        var info = try #require(sandbox.renewalInfos().first)
        #expect(info.isInBillingRetryPeriod == true)
        #expect(info.gracePeriodExpiresDate == Market.date(renewalDate, plus: 16, .day))
        #expect(sandbox.transactions().count == 1)
        #expect(sandbox.events.last { $0.kind == .gracePeriod }?.date == renewalDate)

        sandbox.advance(by: try SandboxDuration(parsing: "3d"))
        sandbox.set(.billingIssue, enabled: false)
        let recoveredAt = Market.date(renewalDate, plus: 3, .day)
        let chain = sandbox.transactions()
        #expect(chain.count == 2)
        let recovery = try #require(chain.last)
        #expect(recovery.purchaseDate == recoveredAt)
        #expect(recovery.expiresDate == Market.date(recoveredAt, plus: 1, .month))
        #expect(recovery.originalTransactionId == first.transactionId)
        #expect(recovery.transactionReason == .renewal)
        info = try #require(sandbox.renewalInfos().first)
        #expect(info.isInBillingRetryPeriod == false)
        #expect(info.gracePeriodExpiresDate == nil)
        #expect(sandbox.events.last { $0.kind == .recovered }?.transactionId == recovery.transactionId)
    }

    @Test("a weekly subscription gets 6 days of grace; grace ends before retry does")
    func weeklyGrace() throws {
        var sandbox = Market.sandbox()
        sandbox.set(.billingIssue, enabled: true)
        sandbox.set(.gracePeriod, enabled: true)
        _ = try sandbox.purchase(Market.newsWeekly).requireTransaction()
        sandbox.advance(by: try SandboxDuration(parsing: "1w"))
        let failedAt = Market.date(Market.start, plus: 1, .week)
        #expect(sandbox.renewalInfos().first?.gracePeriodExpiresDate == Market.date(failedAt, plus: 6, .day))
        sandbox.advance(by: try SandboxDuration(parsing: "7d"))
        #expect(sandbox.events.last { $0.kind == .gracePeriodExpired }?.date == Market.date(failedAt, plus: 6, .day))
        #expect(sandbox.renewalInfos().first?.isInBillingRetryPeriod == true)
    }

    @Test("billing retry without grace gives up after 60 days")
    func retryThenExpiry() throws {
        var sandbox = Market.sandbox()
        sandbox.set(.billingIssue, enabled: true)
        _ = try sandbox.purchase(Market.proMonthly).requireTransaction()
        sandbox.advance(by: try SandboxDuration(parsing: "1M"))
        let failedAt = Market.date(Market.start, plus: 1, .month)
        var info = try #require(sandbox.renewalInfos().first)
        #expect(info.isInBillingRetryPeriod == true)
        #expect(info.gracePeriodExpiresDate == nil)
        #expect(sandbox.events.last?.kind == .clockAdvanced)
        #expect(sandbox.events.contains { $0.kind == .billingRetry && $0.date == failedAt })

        sandbox.advance(by: try SandboxDuration(parsing: "59d"))
        #expect(sandbox.renewalInfos().first?.expirationIntent == nil)
        sandbox.advance(by: try SandboxDuration(parsing: "1d"))
        info = try #require(sandbox.renewalInfos().first)
        #expect(info.expirationIntent == .billingError)
        #expect(info.isInBillingRetryPeriod == false)
        let expired = try #require(sandbox.events.last { $0.kind == .expired })
        #expect(expired.detail == "BILLING_RETRY")
        #expect(expired.date == Market.date(failedAt, plus: 60, .day))
        #expect(sandbox.transactions().count == 1)
    }

    @Test("billing issues for one account leave the others renewing")
    func billingIssuePerAccount() throws {
        var sandbox = Market.sandbox()
        sandbox.set(.billingIssue, enabled: true, account: "alice")
        _ = try sandbox.purchase(Market.proMonthly, account: "alice").requireTransaction()
        _ = try sandbox.purchase(Market.proMonthly, account: "bob").requireTransaction()
        sandbox.advance(by: try SandboxDuration(parsing: "1M"))
        #expect(sandbox.transactions(account: "alice").count == 1)
        #expect(sandbox.transactions(account: "bob").count == 2)
    }

    @Test("accelerated time: monthly renewal every five minutes")
    func acceleratedMonthly() throws {
        var settings = StoreKitSettings()
        settings.timeRate = 13
        var sandbox = Market.sandbox(settings: settings)
        let first = try sandbox.purchase(Market.proMonthly).requireTransaction()
        #expect(first.expiresDate == Market.start.addingTimeInterval(300))
        sandbox.advance(by: try SandboxDuration(parsing: "15m"))
        #expect(sandbox.transactions().count == 4)
        #expect(sandbox.transactions().last?.expiresDate == Market.start.addingTimeInterval(1200))
    }

    @Test("accelerated time: one renewal every five minutes whatever the period, grace 5 min, retry 10 min")
    func acceleratedFixed() throws {
        var settings = StoreKitSettings()
        settings.timeRate = 1001
        settings.renewalBillingIssuesEnabled = true
        settings.billingGracePeriodEnabled = true
        var sandbox = Market.sandbox(settings: settings)
        let yearly = try sandbox.purchase(Market.proYearly).requireTransaction()
        #expect(yearly.expiresDate == Market.start.addingTimeInterval(300))
        sandbox.advance(by: try SandboxDuration(parsing: "5m"))
        #expect(sandbox.renewalInfos().first?.gracePeriodExpiresDate == Market.start.addingTimeInterval(600))
        sandbox.advance(by: try SandboxDuration(parsing: "10m"))
        #expect(sandbox.renewalInfos().first?.expirationIntent == .billingError)
        #expect(sandbox.events.last { $0.kind == .expired }?.date == Market.start.addingTimeInterval(900))
    }

    @Test("the first subscription of a group gets its free trial; a resubscription does not")
    func introductoryOffer() throws {
        var sandbox = Market.sandbox()
        let trial = try sandbox.purchase(Market.trialMonthly).requireTransaction()
        #expect(trial.offerType == .introductory)
        #expect(trial.offerDiscountType == .freeTrial)
        #expect(trial.price == 0)
        #expect(trial.offerPeriod == "P1W")
        #expect(trial.expiresDate == Market.date(Market.start, plus: 1, .week))
        try sandbox.setAutoRenew(productId: Market.trialMonthly, enabled: true)
        sandbox.advance(by: try SandboxDuration(parsing: "1w"))
        let paid = try #require(sandbox.transactions().last)
        #expect(paid.price == 5990)
        #expect(paid.offerType == nil)
        #expect(paid.expiresDate == Market.date(paid.purchaseDate, plus: 1, .month))

        try sandbox.setAutoRenew(productId: Market.trialMonthly, enabled: false)
        sandbox.advance(by: try SandboxDuration(parsing: "2M"))
        let again = try sandbox.purchase(Market.trialMonthly).requireTransaction()
        #expect(again.offerType == nil)
        #expect(again.price == 5990)
        #expect(again.originalTransactionId == trial.transactionId)
    }
}

@Suite("Sandbox subscription details")
struct SubscriptionDetailTests {
    static func catalog(offer: SubscriptionOffer) -> Catalog {
        let product = CatalogProduct(id: "intro.monthly", kind: .autoRenewable, price: 10, currency: "EUR",
                              subscription: .init(groupId: "intro", level: 1,
                                                  period: SubscriptionDuration(value: 1, unit: .month),
                                                  introductoryOffer: offer))
        return Catalog(products: [product],
                       subscriptionGroups: [SubscriptionGroup(id: "intro", name: "Intro", productIds: [product.id])])
    }

    @Test("pay as you go: the offer price for the offer's periods, then the full price")
    func payAsYouGo() throws {
        let offer = SubscriptionOffer(kind: .introductory, paymentMode: .payAsYouGo,
                                      period: SubscriptionDuration(value: 1, unit: .month), periodCount: 2,
                                      price: Decimal(string: "2.5")!)
        var sandbox = Sandbox(catalog: Self.catalog(offer: offer), configuration: Market.configuration,
                              start: Market.start)
        let first = try sandbox.purchase("intro.monthly").requireTransaction()
        #expect(first.offerDiscountType == .payAsYouGo)
        #expect(first.price == 2500)
        #expect(first.currency == "EUR")
        sandbox.advance(by: try SandboxDuration(parsing: "2M"))
        let chain = sandbox.transactions()
        #expect(chain.map(\.price) == [2500, 2500, 10000])
        #expect(chain.map(\.offerType) == [.introductory, .introductory, nil])
        #expect(sandbox.renewalInfos().first?.renewalPrice == 10000)
    }

    @Test("pay up front: one payment covers the whole offer")
    func payUpFront() throws {
        let offer = SubscriptionOffer(kind: .introductory, paymentMode: .payUpFront,
                                      period: SubscriptionDuration(value: 3, unit: .month), price: 20)
        var sandbox = Sandbox(catalog: Self.catalog(offer: offer), configuration: Market.configuration,
                              start: Market.start)
        let first = try sandbox.purchase("intro.monthly").requireTransaction()
        #expect(first.price == 20000)
        #expect(first.offerPeriod == "P3M")
        #expect(first.expiresDate == Market.date(Market.start, plus: 3, .month))
    }

    @Test("restore returns only the latest transaction of a renewed subscription")
    func restoreLatestOfChain() throws {
        var sandbox = Market.sandbox()
        _ = try sandbox.purchase(Market.proMonthly, device: "iphone").requireTransaction()
        sandbox.advance(by: try SandboxDuration(parsing: "2M"))
        let restored = try sandbox.restore(device: "ipad")
        #expect(restored.count == 1)
        #expect(restored.first == sandbox.transactions().last)
        #expect(sandbox.unfinished(device: "ipad").isEmpty)
    }

    @Test("auto-renew needs a subscription in force")
    func setAutoRenewErrors() throws {
        var sandbox = Market.sandbox()
        #expect(throws: SandboxError.self) { try sandbox.setAutoRenew(productId: "nope", enabled: false) }
        do {
            try sandbox.setAutoRenew(productId: Market.proMonthly, enabled: false)
            Issue.record("no subscription yet")
        } catch {
            #expect(error.code == .notSubscribed)
        }
        do {
            try sandbox.setAutoRenew(productId: Market.premium, enabled: false)
            Issue.record("not a subscription")
        } catch {
            #expect(error.code == .notSubscribed)
        }
    }

    @Test("events of many accounts come out in date order with increasing sequence numbers")
    func eventOrder() throws {
        var sandbox = Market.sandbox()
        _ = try sandbox.purchase(Market.proMonthly, account: "b").requireTransaction()
        _ = try sandbox.purchase(Market.newsWeekly, account: "a").requireTransaction()
        sandbox.advance(by: try SandboxDuration(parsing: "3M"))
        let dates = sandbox.events.map(\.date)
        #expect(dates == dates.sorted())
        #expect(sandbox.events.map(\.sequence) == Array(1...sandbox.events.count))
        // Jan 15 → Apr 15 is 3 months, and 12 weeks and 6 days.
        #expect(sandbox.events.filter { $0.kind == .renewed }.count == 3 + 12)
    }

    @Test("a monthly-renewal-every-hour weekly subscription gets 12 min 51 s of grace and 2 h of retry")
    func monthlyRateGrace() throws {
        var settings = StoreKitSettings()
        settings.timeRate = 10
        settings.renewalBillingIssuesEnabled = true
        settings.billingGracePeriodEnabled = true
        var sandbox = Market.sandbox(settings: settings)
        let weekly = try sandbox.purchase(Market.newsWeekly).requireTransaction()
        #expect(weekly.expiresDate == Market.start.addingTimeInterval(900))
        sandbox.advance(by: try SandboxDuration(parsing: "15m"))
        #expect(sandbox.renewalInfos().first?.gracePeriodExpiresDate == Market.start.addingTimeInterval(900 + 771))
        sandbox.advance(by: try SandboxDuration(parsing: "2h"))
        #expect(sandbox.events.last { $0.kind == .expired }?.date == Market.start.addingTimeInterval(900 + 7200))
    }
}
