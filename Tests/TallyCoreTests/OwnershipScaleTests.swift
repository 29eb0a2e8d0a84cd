import Foundation
import Testing
@testable import TallyCore

private typealias F = RulesFixtures

/// Larger histories: many products (the product table grows) and many redelivered transactions.
@Suite("Ownership at scale")
struct OwnershipScaleTests {
    @Test func manyProductsAndRedeliveriesCountOnce() {
        var transactions: [StoreTransaction] = []
        for product in 0..<60 {
            transactions.append(F.purchase("n\(product)", "app.legacy.\(product)", at: F.start))
        }
        for purchase in 0..<3_000 {
            transactions.append(F.purchase("c\(purchase)", purchase % 3 == 0 ? "app.coins.100" : "app.coins.10",
                                           at: F.start.addingTimeInterval(Double(purchase)),
                                           revokedAt: purchase % 50 == 0 ? F.day(1) : nil))
        }
        let state = F.state(transactions + transactions.reversed(), at: F.day(2))
        #expect(state.nonConsumables.count == 60)
        #expect(Set(state.nonConsumables) == Set((0..<60).map { "app.legacy.\($0)" }))
        let hundreds = (0..<3_000).filter { $0 % 3 == 0 && $0 % 50 != 0 }.count
        let tens = (0..<3_000).filter { $0 % 3 != 0 && $0 % 50 != 0 }.count
        #expect(state.balance("coins") == Decimal(hundreds * 100 + tens * 10))
        #expect(state.ledger.count == 3_000 + 60)
    }

    @Test func ledgerAndRecordAgreeOnUnknownTypes() throws {
        let odd = StoreTransaction(transactionId: "x1", productId: "app.coins.10", purchaseDate: F.start, quantity: 2,
                              type: ProductType(rawValue: "Future Kind"))
        var history = PurchaseHistory(transactions: [odd])
        let state = CustomerState(catalog: F.catalog, configuration: F.configuration, history: history, at: F.day(1))
        #expect(state.balance("coins") == 20)
        #expect(try history.record(Spend(id: "s", currency: "coins", amount: 20, date: F.day(1)),
                                   catalog: F.catalog, configuration: F.configuration))
    }
}
