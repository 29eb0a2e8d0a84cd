import Foundation
@testable import TallyCore


/// A small store built in code for the ownership-rules tests.
enum RulesFixtures {
    /// 2023-11-14T22:13:20Z, the start of every scenario.
    static let start = Date(timeIntervalSince1970: 1_700_000_000)
    static let month = SubscriptionDuration(value: 1, unit: .month)
    static let year = SubscriptionDuration(value: 1, unit: .year)

    /// `days` days after ``start``.
    static func day(_ days: Double) -> Date { start.addingTimeInterval(days * 86_400) }

    static let catalog = Catalog(
        products: [
            CatalogProduct(id: "app.premium", kind: .nonConsumable, price: 4.99, currency: "USD", familyShareable: true),
            CatalogProduct(id: "app.coins.10", kind: .consumable, price: 0.99, currency: "USD"),
            CatalogProduct(id: "app.coins.100", kind: .consumable, price: 7.99, currency: "USD"),
            CatalogProduct(id: "app.dust", kind: .consumable, price: 0.49, currency: "USD"),
            CatalogProduct(id: "app.pass.month", kind: .nonRenewing, price: 2.99, currency: "USD"),
            CatalogProduct(id: "app.pass.unset", kind: .nonRenewing, price: 2.99, currency: "USD"),
            subscription("plus.gold.month", level: 1, period: month),
            subscription("plus.gold.year", level: 1, period: year),
            subscription("plus.silver.month", level: 2, period: month),
            subscription("plus.silver.month2", level: 2, period: month),
            subscription("plus.silver.year", level: 2, period: year),
            subscription("other.month", level: 1, period: month, group: "other"),
        ],
        subscriptionGroups: [
            SubscriptionGroup(id: "plus", name: "Plus", productIds: ["plus.gold.month", "plus.gold.year",
                                                                      "plus.silver.month", "plus.silver.month2",
                                                                      "plus.silver.year"]),
            SubscriptionGroup(id: "other", name: "Other", productIds: ["other.month"]),
        ])

    static let configuration = AppConfiguration(
        bundleId: "com.example.tally",
        entitlements: [
            "premium": ["app.premium", "plus.gold.month", "plus.gold.year"],
            "basic": ["plus.silver.month", "plus.silver.month2", "plus.silver.year", "plus.gold.month",
                      "plus.gold.year", "app.pass.month"],
            "legacy": ["app.legacy"],
            "extras": ["other.month", "app.pass.unset"],
        ],
        currencies: ["coins": ["app.coins.10": 10, "app.coins.100": 100],
                     "dust": ["app.dust": Decimal(1) / 10]],
        nonRenewingDurations: ["app.pass.month": month])

    static func subscription(_ id: String, level: Int, period: SubscriptionDuration, group: String = "plus") -> CatalogProduct {
        CatalogProduct(id: id, kind: .autoRenewable, price: 1.99, currency: "USD",
                subscription: CatalogProduct.Subscription(groupId: group, level: level, period: period))
    }

    /// A one-time purchase; its type comes from the catalog (non-consumable when the catalog lacks it).
    static func purchase(_ id: String, _ productId: String, at date: Date, quantity: Int = 1,
                         revokedAt: Date? = nil, signed: Date? = nil,
                         ownership: OwnershipType = .purchased) -> StoreTransaction {
        let kind = catalog.product(productId)?.kind ?? .nonConsumable
        return StoreTransaction(transactionId: id, productId: productId, purchaseDate: date, quantity: quantity,
                           type: kind.transactionType, inAppOwnershipType: ownership, signedDate: signed,
                           revocationReason: revokedAt == nil ? nil : .appIssue, revocationDate: revokedAt,
                           revocationType: revokedAt == nil ? nil : .refundFull)
    }

    /// One auto-renewable period of `productId` starting at `start`, in chain `original`.
    static func period(_ id: String, _ productId: String, from start: Date, original: String? = nil,
                       revokedAt: Date? = nil, upgraded: Bool? = nil, offer: OfferType? = nil,
                       discount: OfferDiscountType? = nil) -> StoreTransaction {
        let length = catalog.product(productId)?.subscription?.period ?? month
        return StoreTransaction(transactionId: id, originalTransactionId: original ?? id, productId: productId,
                           subscriptionGroupIdentifier: catalog.product(productId)?.subscription?.groupId,
                           purchaseDate: start, expiresDate: length.advance(start), type: .autoRenewable,
                           revocationDate: revokedAt, isUpgraded: upgraded, offerType: offer,
                           transactionReason: original == nil || original == id ? .purchase : .renewal,
                           offerDiscountType: discount)
    }

    /// Renewal information for chain `original`.
    static func renewal(_ original: String, _ productId: String, next: String? = nil, autoRenew: Bool = true,
                        billingRetry: Bool? = nil, grace: Date? = nil) -> RenewalInfo {
        RenewalInfo(originalTransactionId: original, productId: productId, autoRenewProductId: next ?? productId,
                    autoRenewStatus: autoRenew ? .on : .off, isInBillingRetryPeriod: billingRetry,
                    gracePeriodExpiresDate: grace)
    }

    /// The state of a history at `now` under the fixture catalog and configuration.
    static func state(_ transactions: [StoreTransaction], renewals: [RenewalInfo] = [], spends: [Spend] = [],
                      at now: Date) -> CustomerState {
        CustomerState(catalog: catalog, configuration: configuration,
                      history: PurchaseHistory(transactions: transactions, renewalInfos: renewals, spends: spends),
                      at: now)
    }
}
