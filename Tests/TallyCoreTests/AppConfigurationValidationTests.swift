import Foundation
import Testing
@testable import TallyCore

@Suite("AppConfiguration: validation against a catalog")
struct AppConfigurationValidationTests {
    static let catalog = Catalog(products: [
        CatalogProduct(id: "market.coins.10", kind: .consumable, price: Decimal(string: "0.99")!, currency: "USD"),
        CatalogProduct(id: "market.premium", kind: .nonConsumable, price: 5, currency: "USD"),
        CatalogProduct(id: "market.season", kind: .nonRenewing, price: 3, currency: "USD"),
        CatalogProduct(id: "market.pro", kind: .autoRenewable, price: 2, currency: "USD",
                subscription: CatalogProduct.Subscription(groupId: "g", level: 1, period: SubscriptionDuration(value: 1, unit: .month))),
    ], fileName: "Market.storekit")

    @Test("a configuration that matches the catalog passes")
    func matches() throws {
        let config = AppConfiguration(bundleId: "b", entitlements: ["premium": ["market.premium", "market.pro", "market.season"]],
                                      currencies: ["coins": ["market.coins.10": 10]],
                                      nonRenewingDurations: ["market.season": SubscriptionDuration(value: 1, unit: .year)])
        try config.validate(against: Self.catalog)
        #expect(config.problems(against: Self.catalog).isEmpty)
    }

    @Test("every mismatch is listed in one error")
    func mismatches() throws {
        let config = AppConfiguration(bundleId: "b", entitlements: ["premium": ["market.coins.10", "market.gold"]],
                                      currencies: ["coins": ["market.coins.100": 100, "market.premium": 1]],
                                      nonRenewingDurations: ["market.pro": SubscriptionDuration(value: 1, unit: .month)])
        let error = try #require(throws: TallyError.self) { try config.validate(against: Self.catalog, fileName: "market.json") }
        #expect(error.code == .invalidConfiguration)
        #expect(error.message.hasPrefix("market.json does not match Market.storekit:\n"))
        let expected = [
            "entitlements.premium: market.coins.10 is a Consumable; it is used up and cannot grant a lasting entitlement",
            "entitlements.premium: market.gold is not in Market.storekit",
            "currencies.coins: market.coins.100 is not in Market.storekit",
            "currencies.coins: market.premium is a NonConsumable; only Consumable products can credit a currency",
            "nonRenewingDurations: market.pro is a RecurringSubscription, not a NonRenewingSubscription",
        ]
        let problems = config.problems(against: Self.catalog)
        #expect(Array(problems.prefix(5)) == expected)
        #expect(problems.count == 6)
        #expect(problems.last?.hasPrefix("nonRenewingDurations: market.season is a NonRenewingSubscription in Market.storekit but has no duration") == true)
        for problem in problems { #expect(error.message.contains("- " + problem)) }
    }

    @Test("a real vector: tally.json naming products of 32 (TikTok SDK) validates, a typo does not")
    func realCatalog() throws {
        let catalog = try CatalogVectors.catalog("32")
        let consumable = try #require(catalog.products.first { $0.kind == .consumable })
        let nonRenewing = try #require(catalog.products.first { $0.kind == .nonRenewing })
        let json = """
        {"bundleId": "com.tiktok", "currencies": {"coins": {"\(consumable.id)": 100}},
         "nonRenewingDurations": {"\(nonRenewing.id)": "P1M"}}
        """
        let config = try AppConfiguration(jsonData: Data(json.utf8), fileName: "tally.json")
        try config.validate(against: catalog)
        var typo = config
        typo.currencies["coins"] = [consumable.id + "x": 100]
        let error = try #require(throws: TallyError.self) { try typo.validate(against: catalog) }
        #expect(error.message.contains("\(consumable.id)x is not in \(catalog.fileName ?? "?")"))
    }
}
