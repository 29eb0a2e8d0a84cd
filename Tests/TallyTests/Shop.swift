import Foundation
import TallyCore

/// A small shop for the engine tests: coins (consumable), premium (non-consumable), pro (monthly subscription).
enum Shop {
    static let coins = "shop.coins.10"
    static let premium = "shop.premium"
    static let proMonthly = "shop.pro.monthly"
    /// A lower level of the "pro" group: buying it while on pro is a downgrade at the next renewal.
    static let liteMonthly = "shop.lite.monthly"
    static let unknown = "shop.does.not.exist"

    /// 2026-01-15 00:00:00 UTC.
    static let start = Date(timeIntervalSince1970: 1_768_435_200)

    static let catalog = Catalog(
        products: [
            CatalogProduct(id: coins, kind: .consumable, price: Decimal(string: "0.99") ?? 0, currency: "USD",
                    localizations: [.init(locale: "en_US", displayName: "10 Coins", description: "A bag of coins")]),
            CatalogProduct(id: premium, kind: .nonConsumable, price: Decimal(string: "9.99") ?? 0, currency: "USD",
                    localizations: [.init(locale: "en_US", displayName: "Premium", description: "Everything")]),
            CatalogProduct(id: proMonthly, kind: .autoRenewable, price: Decimal(string: "4.99") ?? 0, currency: "USD",
                    subscription: .init(groupId: "pro", level: 1, period: SubscriptionDuration(value: 1, unit: .month))),
            CatalogProduct(id: liteMonthly, kind: .autoRenewable, price: Decimal(string: "1.99") ?? 0, currency: "USD",
                    subscription: .init(groupId: "pro", level: 2, period: SubscriptionDuration(value: 1, unit: .month),
                                        introductoryOffer: SubscriptionOffer(
                                            kind: .introductory, paymentMode: .freeTrial,
                                            period: SubscriptionDuration(value: 1, unit: .week), periodCount: 1))),
        ],
        subscriptionGroups: [SubscriptionGroup(id: "pro", name: "Pro", productIds: [proMonthly, liteMonthly])])

    static let configuration = AppConfiguration(
        bundleId: "com.example.shop",
        entitlements: ["premium": [premium], "pro": [proMonthly], "lite": [liteMonthly]],
        currencies: ["coins": [coins: 10]])

    /// A fresh, empty data directory.
    static func directory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("tally-engine-\(UUID().uuidString)")
    }
}
