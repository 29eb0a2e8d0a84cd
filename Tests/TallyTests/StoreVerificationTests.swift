import Foundation
import Testing
import Tally
import TallyTesting
import TallyCore

@Suite("Store verification")
struct StoreVerificationTests {
    @Test("a transaction for another app is refused: not written, not finished, reported")
    func foreignBundle() async throws {
        let harness = Harness()
        let store = try await harness.launch()
        let events = store.events()
        var foreign = StoreTransaction(transactionId: "9", bundleId: "com.other.app", productId: Shop.premium,
                                  purchaseDate: Shop.start, type: .nonConsumable)
        foreign.signedDate = Shop.start
        await harness.backend.send(foreign)
        let seen = try await collect(events) { $0.name == "failed" }
        guard case .failed(_, let reason) = seen.last else { return }
        #expect(reason.code == .verificationFailed)
        #expect(await store.history.transactions.isEmpty)
        #expect(await store.diagnostics.map(\.kind) == [.deliveryFailed])
        #expect(await store.isEntitled("premium") == false)
    }
}
