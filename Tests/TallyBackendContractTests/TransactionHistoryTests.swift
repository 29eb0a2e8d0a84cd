import Foundation
#if os(Linux)
@_spi(Scripting) import StoreKit
#endif
import Tally
import TallyCore
import Testing

extension OneAtATime {
/// ``Store/transactionHistory()``: the customer's transactions as the store records them (StoreKit's
/// `Transaction.all`, the sandbox's account history), verified, read without changing the customer file.
@Suite("Transaction history from the store")
struct TransactionHistoryTests {
    @Test("every transaction the store records, in its latest form, even on a new install that holds none",
          arguments: WorldKind.allCases)
    func historyFromTheStore(kind: WorldKind) async throws {
        let world = try kind.make()
        let store = try await App(world).launch()
        _ = try await store.purchase("market.coins.10")
        _ = try await store.purchase("market.premium")
        _ = try await store.purchase("market.pro.monthly")
        let premium = try #require(await store.history.transactions.first { $0.productId == "market.premium" })
        await store.close()
        try world.refund(transactionId: premium.transactionId)

        let newInstall = try await App(world).launch()
        let history = try await newInstall.transactionHistory()
        #expect(Set(history.map(\.productId)) == ["market.coins.10", "market.premium", "market.pro.monthly"],
                "\(kind): \(history.map(\.productId))")
        #expect(history.count == 3)
        #expect(history.first { $0.productId == "market.premium" }?.revocationDate != nil,
                "\(kind): the refunded transaction is not in its latest form")
        #expect(history.first { $0.productId == "market.coins.10" }?.revocationDate == nil)
        #expect(history.map(\.purchaseDate) == history.map(\.purchaseDate).sorted())
        await newInstall.close()
    }

    #if os(Linux)
    @Test("StoreKit: a transaction StoreKit could not verify, or a foreign key signed, is not listed; the forgery reported")
    func storeKitUnverifiedHistoryIsLeftOut() async throws {
        let world = try StoreKitWorld()
        let script = StoreKitScript.shared
        let refused = try world.loose("market.coins.100")
        let forged = try world.loose("market.coins.100", forged: true)
        let genuine = try world.loose("market.coins.10")
        script.script { $0.all = [.unverified(refused, .invalidSignature), .verified(forged), .verified(genuine)] }
        let store = try await App(world).launch()
        let history = try await store.transactionHistory()
        #expect(history.map(\.transactionId) == [String(genuine.id)])
        #expect(await store.diagnostics.contains { $0.kind == .unverifiedTransaction
            && $0.message.contains(String(forged.id)) })
        #expect(await store.balance("coins") == 0, "reading the history credited something")
        #expect(script.calls.finished.isEmpty, "reading the history finished something")
        await store.close()
    }
    #endif
}
}
