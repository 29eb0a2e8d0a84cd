import Foundation
import Testing
@testable import Tally
import TallyTesting
import TallyCore

@Suite("Store: only signed transactions count")
struct StoreForgeryTests {
    @Test("a forged coin line with a recomputed CRC-32 grants nothing, is reported, and a restore does not bring it")
    func forgedCoins() async throws {
        let harness = Harness()
        let store = try await harness.launch()
        _ = try await store.purchase(Shop.coins)
        await store.close()
        let journal = harness.directory.appendingPathComponent(CustomerFile.journalName).path
        try CustomerFileForgeryTests.append(.transaction(CustomerFileForgeryTests.coins, jwsRepresentation: nil),
                                            to: journal)

        let relaunched = try await harness.launch()
        #expect(await relaunched.balance("coins") == 10)
        let diagnostics = await relaunched.diagnostics
        #expect(diagnostics.map(\.kind) == [.unverifiedTransaction])
        #expect(diagnostics.first?.message.contains("line 3 (transaction 5000") == true, "\(diagnostics)")
        #expect(await harness.backend.restoreCount == 1)
        _ = try await relaunched.restore()
        #expect(await relaunched.balance("coins") == 10)
        await relaunched.close()
        #expect(try await harness.launch().balance("coins") == 10)
    }

    @Test("a customer file written before signed forms is untrusted, reported, and rebuilt from a restore")
    func legacyFileRestores() async throws {
        let harness = Harness()
        let store = try await harness.launch()
        let premium = try #require(try await store.purchase(Shop.premium).transaction)
        await store.close()
        // The file as the previous format wrote it: a version 1 snapshot of bare transactions, no journal.
        let snapshot = harness.directory.appendingPathComponent(CustomerFile.snapshotName)
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: snapshot)) as? [String: Any])
        json["formatVersion"] = 1
        json["transactions"] = [try JSONSerialization.jsonObject(with: JSONEncoder().encode(premium))]
        try JSONSerialization.data(withJSONObject: json).write(to: snapshot)
        try Data().write(to: harness.directory.appendingPathComponent(CustomerFile.journalName))

        let relaunched = try await harness.launch()
        #expect(await relaunched.diagnostics.map(\.kind) == [.unverifiedTransaction])
        #expect(await harness.backend.restoreCount == 1)
        #expect(await relaunched.isEntitled("premium"), "the store's restore brings the signed copy back")
        #expect(await relaunched.history.transactions == [premium])
        await relaunched.close()
        let again = try await harness.launch()
        #expect(await again.diagnostics.isEmpty)
        #expect(await harness.backend.restoreCount == 1)
    }

    @Test("an update whose signed form is another transaction's is refused: not written, not finished, reported")
    func transplantedUpdate() async throws {
        let harness = Harness()
        let store = try await harness.launch()
        let events = store.events()
        let coins = try #require(try await store.purchase(Shop.coins).transaction)
        let jws = harness.backend.signatures.sign(coins)
        var forged = coins
        forged.transactionId = "777"
        await harness.backend.sendAsIs(TransactionUpdate(transaction: forged, jwsRepresentation: jws))
        let seen = try await collect(events) { $0.name == "failed" }
        guard case .failed(_, let reason) = seen.last else { return }
        #expect(reason.code == .verificationFailed)
        #expect(reason.message.contains("came with the signed form of transaction \(coins.transactionId)"))
        #expect(await store.balance("coins") == 10)
    }
}
