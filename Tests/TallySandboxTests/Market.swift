import Foundation
import TallyCore
@testable import TallySandbox

/// The tutorial's "market" store, built with the model initializers.
enum Market {
    static let removeAds = "market.removeads"
    static let coins = "market.coins.10"
    static let premium = "market.premium"
    static let season = "market.season.pass"
    static let proMonthly = "market.pro.monthly"
    static let proYearly = "market.pro.yearly"
    static let plusMonthly = "market.plus.monthly"
    static let basicMonthly = "market.basic.monthly"
    static let newsWeekly = "market.news.weekly"
    static let trialMonthly = "market.trial.monthly"

    /// 2026-01-15 00:00:00 UTC.
    static let start = Date(timeIntervalSince1970: 1_768_435_200)

    static func catalog(settings: StoreKitSettings = StoreKitSettings()) -> Catalog {
        let month = SubscriptionDuration(value: 1, unit: .month)
        func sub(_ id: String, _ price: Decimal, group: String, level: Int, period: SubscriptionDuration = month,
                 intro: SubscriptionOffer? = nil) -> CatalogProduct {
            CatalogProduct(id: id, kind: .autoRenewable, price: price, currency: "USD",
                    subscription: .init(groupId: group, level: level, period: period, introductoryOffer: intro))
        }
        let trial = SubscriptionOffer(kind: .introductory, paymentMode: .freeTrial,
                                      period: SubscriptionDuration(value: 1, unit: .week))
        let products = [
            CatalogProduct(id: removeAds, kind: .nonConsumable, price: Decimal(string: "2.99")!, currency: "USD"),
            CatalogProduct(id: coins, kind: .consumable, price: Decimal(string: "0.99")!, currency: "USD"),
            CatalogProduct(id: premium, kind: .nonConsumable, price: Decimal(string: "9.99")!, currency: "USD"),
            CatalogProduct(id: season, kind: .nonRenewing, price: Decimal(string: "4.99")!, currency: "USD"),
            sub(plusMonthly, Decimal(string: "14.99")!, group: "pro", level: 1),
            sub(proMonthly, Decimal(string: "9.99")!, group: "pro", level: 2),
            sub(proYearly, Decimal(string: "99.99")!, group: "pro", level: 2, period: SubscriptionDuration(value: 1, unit: .year)),
            sub(basicMonthly, Decimal(string: "4.99")!, group: "pro", level: 3),
            sub(newsWeekly, Decimal(string: "1.99")!, group: "news", level: 1, period: SubscriptionDuration(value: 1, unit: .week)),
            sub(trialMonthly, Decimal(string: "5.99")!, group: "trial", level: 1, intro: trial),
        ]
        let groups = [
            SubscriptionGroup(id: "pro", name: "Pro", productIds: [plusMonthly, proMonthly, proYearly, basicMonthly]),
            SubscriptionGroup(id: "news", name: "News", productIds: [newsWeekly]),
            SubscriptionGroup(id: "trial", name: "Trial", productIds: [trialMonthly]),
        ]
        return Catalog(products: products, subscriptionGroups: groups, settings: settings)
    }

    static let configuration = AppConfiguration(
        bundleId: "com.example.market",
        entitlements: ["noAds": [removeAds, premium], "premium": [premium], "pro": [plusMonthly, proMonthly, proYearly, basicMonthly]],
        currencies: ["coins": [coins: 10]],
        nonRenewingDurations: [season: SubscriptionDuration(value: 3, unit: .month)])

    static func sandbox(settings: StoreKitSettings = StoreKitSettings()) -> Sandbox {
        Sandbox(catalog: catalog(settings: settings), configuration: configuration, start: start)
    }

    /// A date `value` calendar units after `date`, in UTC.
    static func date(_ date: Date, plus value: Int, _ unit: SubscriptionDuration.Unit) -> Date {
        SubscriptionDuration(value: value, unit: unit).advance(date)
    }
}

/// Test failures as values, to keep `#require` messages readable.
struct UnexpectedResult: Error, CustomStringConvertible {
    var description: String
}

extension PurchaseResult {
    /// The transaction, or a thrown test failure naming the outcome.
    func requireTransaction() throws -> StoreTransaction {
        guard let transaction else { throw UnexpectedResult(description: "expected purchased, got \(self)") }
        return transaction
    }

    /// The pending purchase, or a thrown test failure naming the outcome.
    func requirePending() throws -> PendingPurchase {
        guard let pendingPurchase else { throw UnexpectedResult(description: "expected pending, got \(self)") }
        return pendingPurchase
    }
}

/// A scratch directory removed when the test ends.
struct ScratchDirectory: ~Copyable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("tally-sandbox-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
