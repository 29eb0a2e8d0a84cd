import Foundation
import TallyCore

/// A catalog and a large mixed purchase history for the benchmarks, generated deterministically.
struct BenchFixture {
    let catalog: Catalog
    let configuration: AppConfiguration
    let start = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01
    var end: Date { start.addingTimeInterval(400 * 86_400) }

    init() {
        let month = SubscriptionDuration(value: 1, unit: .month)
        let products = [
            CatalogProduct(id: "coins.10", kind: .consumable, price: Decimal(string: "0.99")!, currency: "USD"),
            CatalogProduct(id: "coins.100", kind: .consumable, price: Decimal(string: "7.99")!, currency: "USD"),
            CatalogProduct(id: "premium", kind: .nonConsumable, price: Decimal(string: "2.99")!, currency: "USD"),
            CatalogProduct(id: "pro.monthly", kind: .autoRenewable, price: Decimal(string: "4.99")!, currency: "USD",
                    subscription: .init(groupId: "g1", level: 1, period: month)),
            CatalogProduct(id: "plus.monthly", kind: .autoRenewable, price: Decimal(string: "2.49")!, currency: "USD",
                    subscription: .init(groupId: "g1", level: 2, period: month)),
            CatalogProduct(id: "season", kind: .nonRenewing, price: Decimal(string: "9.99")!, currency: "USD"),
        ]
        catalog = Catalog(products: products,
                          subscriptionGroups: [SubscriptionGroup(id: "g1", name: "g1",
                                                                 productIds: ["pro.monthly", "plus.monthly"])])
        configuration = AppConfiguration(
            bundleId: "com.example.bench",
            entitlements: ["premium": ["premium"], "pro": ["pro.monthly"], "plus": ["pro.monthly", "plus.monthly"],
                           "season": ["season"]],
            currencies: ["coins": ["coins.10": 10, "coins.100": 100]],
            nonRenewingDurations: ["season": SubscriptionDuration(value: 3, unit: .month)])
    }

    /// `count` transactions: mostly consumables, with subscriptions renewing, non-consumables, non-renewing
    /// purchases, refunds every 50th, and a spend for every 10th.
    func history(transactions count: Int) -> PurchaseHistory {
        var history = PurchaseHistory()
        history.transactions.reserveCapacity(count)
        let month = SubscriptionDuration(value: 1, unit: .month)
        var renewalStart = start
        for index in 0..<count {
            let date = start.addingTimeInterval(Double(index) * 300)
            let id = String(2_000_000_000_000_000 + index)
            var transaction: StoreTransaction
            switch index % 20 {
            case 0:
                let expires = month.advance(renewalStart)
                transaction = StoreTransaction(transactionId: id, originalTransactionId: "2000000000000000",
                                          productId: index % 40 == 0 ? "pro.monthly" : "plus.monthly",
                                          subscriptionGroupIdentifier: "g1", purchaseDate: renewalStart,
                                          expiresDate: expires, type: .autoRenewable)
                renewalStart = expires
            case 1:
                transaction = StoreTransaction(transactionId: id, productId: "premium", purchaseDate: date,
                                          type: .nonConsumable)
            case 2:
                transaction = StoreTransaction(transactionId: id, productId: "season", purchaseDate: date,
                                          type: .nonRenewing)
            default:
                transaction = StoreTransaction(transactionId: id, productId: index % 3 == 0 ? "coins.100" : "coins.10",
                                          purchaseDate: date, quantity: 1 + index % 3, type: .consumable)
            }
            if index % 50 == 7 { transaction.revocationDate = date.addingTimeInterval(3600) }
            history.transactions.append(transaction)
            if index % 10 == 5 {
                history.spends.append(Spend(id: "spend-\(index)", currency: "coins", amount: 5, date: date))
            }
        }
        return history
    }
}
