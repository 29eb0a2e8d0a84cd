import Foundation
import TallyCore
@testable import TallyServer
import TallyStorage

/// Temporary databases, transactions and a small catalog for the store tests.
enum StoreFixtures {
    /// 2026-11-30T05:00:00Z.
    static let start = Date(timeIntervalSince1970: 1_796_014_800)

    /// `days` days after ``start``.
    static func day(_ days: Double) -> Date { start.addingTimeInterval(days * 86_400) }

    static let catalog = Catalog(products: [
        CatalogProduct(id: "app.coins.100", kind: .consumable, price: Decimal(799) / 100, currency: "USD"),
        CatalogProduct(id: "app.premium", kind: .nonConsumable, price: Decimal(499) / 100, currency: "USD"),
        CatalogProduct(id: "app.pro.month", kind: .autoRenewable, price: Decimal(199) / 100, currency: "USD",
                subscription: CatalogProduct.Subscription(groupId: "pro", level: 1,
                                                   period: SubscriptionDuration(value: 1, unit: .month))),
    ], subscriptionGroups: [SubscriptionGroup(id: "pro", name: "Pro", productIds: ["app.pro.month"])])

    static let configuration = AppConfiguration(
        bundleId: "com.example.store", entitlements: ["premium": ["app.premium"], "pro": ["app.pro.month"]],
        currencies: ["coins": ["app.coins.100": 100]])

    /// What the fixtures' transactions credit.
    static let credits = CurrencyCredits(catalog: catalog, configuration: configuration)

    /// A consumable purchase of `quantity` × 100 coins.
    static func coins(_ id: String, quantity: Int = 1, token: String? = nil, at date: Date = start) -> StoredTransaction {
        signed(StoreTransaction(transactionId: id, productId: "app.coins.100", purchaseDate: date, quantity: quantity,
                           type: .consumable, appAccountToken: token, signedDate: date))
    }

    /// A non-consumable purchase.
    static func premium(_ id: String, token: String? = nil, revokedAt: Date? = nil) -> StoredTransaction {
        signed(StoreTransaction(transactionId: id, productId: "app.premium", purchaseDate: start, type: .nonConsumable,
                           appAccountToken: token, signedDate: start, revocationReason: revokedAt.map { _ in .appIssue },
                           revocationDate: revokedAt))
    }

    /// One period of a monthly subscription in chain `original`.
    static func period(_ id: String, original: String, month: Int, token: String? = nil) -> StoredTransaction {
        let from = Calendar(identifier: .gregorian).date(byAdding: .month, value: month, to: start) ?? start
        return signed(StoreTransaction(
            transactionId: id, originalTransactionId: original, productId: "app.pro.month",
            subscriptionGroupIdentifier: "pro", purchaseDate: from,
            expiresDate: from.addingTimeInterval(30 * 86_400), type: .autoRenewable, appAccountToken: token,
            signedDate: from))
    }

    /// The transaction as a signed post with a stand-in JWS (the store keeps it, it does not verify it).
    static func signed(_ transaction: StoreTransaction) -> StoredTransaction {
        StoredTransaction(transaction: transaction, source: .signedTransaction,
                          signedTransaction: "jws.\(transaction.transactionId).\(transaction.signedDate?.millisecondsSince1970 ?? 0)")
    }

    /// A spend of coins.
    static func spend(_ id: String, _ amount: Decimal, at date: Date = day(1)) -> Spend {
        Spend(id: id, currency: "coins", amount: amount, date: date)
    }

    /// The customer's balance of coins.
    static func balance(_ record: CustomerRecord) -> Decimal {
        Ledger(history: record.purchaseHistory, catalog: catalog, configuration: configuration).balance(of: "coins")
    }
}

extension CustomerStore {
    /// Stores `spend` for `appUserId` by the server's rule: TallyCore's `Spend.admit` against the kept net.
    func spend(_ spend: Spend, for appUserId: String) throws(CustomerStoreError) -> SpendOutcome {
        try self.spend(id: spend.id, currency: spend.currency, for: appUserId) { existing, net in
            try spend.admit(existing: existing, available: net) ? spend : nil
        }
    }
}

/// SplitMix64: the same sequence for a seed on every platform, for the store tests' random histories.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
