import Foundation
import Synchronization
import Testing
@testable import Tally
import TallyTesting
import TallyCore

@Suite("Store delivery")
struct StoreDeliveryTests {
    @Test("a transaction delivered twice credits once")
    func deliveredTwice() async throws {
        let harness = Harness()
        let store = try await harness.launch()
        let coins = try #require(try await store.purchase(Shop.coins).transaction)
        let events = store.events()
        await harness.backend.redeliver(coins.transactionId)
        let marker = await harness.backend.buyElsewhere(Shop.premium)
        _ = try await collect(events) { event in
            if case .purchased(let transaction, _) = event { return transaction == marker }
            return false
        }
        #expect(await store.history.transactions.filter { $0.transactionId == coins.transactionId }.count == 1)
        #expect(await store.balance("coins") == 10)
        #expect(await harness.backend.unfinishedIds.isEmpty)
    }

    @Test("a copy arriving while the purchase's delivery is suspended waits for it: finished and announced once")
    func copyDuringDelivery() async throws {
        let harness = Harness()
        let backend = harness.backend
        let redelivered = Mutex(false)
        // At `written` (where a linked store awaits its server) the store's update stream brings the same
        // transaction again, and the purchase's delivery stays suspended a while.
        let store = try await harness.launch { step, transactionId in
            guard step == .written, !redelivered.withLock({ let was = $0; $0 = true; return was }) else { return }
            await backend.redeliver(transactionId)
            try? await Task.sleep(for: .milliseconds(300))
        }
        let events = store.events()
        let coins = try #require(try await store.purchase(Shop.coins).transaction)
        let marker = await backend.buyElsewhere(Shop.premium)
        let seen = try await collect(events) { event in
            if case .purchased(let transaction, _) = event { return transaction == marker }
            return false
        }
        let announced = seen.filter { if case .purchased(let transaction, _) = $0 { transaction == coins } else { false } }
        #expect(announced.count == 1)
        #expect(await backend.unfinishedIds.isEmpty)
        #expect(await store.balance("coins") == 10)
    }

    @Test("written but not finished: delivered again at the next launch, credited once, then finished")
    func writtenNotFinished() async throws {
        let harness = Harness()
        let store = try await harness.launch()
        await harness.backend.failFinish(times: 1)
        let coins = try #require(try await store.purchase(Shop.coins).transaction)
        #expect(await harness.backend.unfinishedIds == [coins.transactionId])
        #expect(await store.diagnostics.map(\.kind) == [.finishFailed])
        #expect(await store.balance("coins") == 10)
        await store.close()

        let relaunched = try await harness.launch()
        #expect(await harness.backend.unfinishedIds.isEmpty)
        #expect(await relaunched.history.transactions.map(\.transactionId) == [coins.transactionId])
        #expect(await relaunched.balance("coins") == 10)
    }

    @Test("delivery steps run in order, and the effect is on disk before the backend is told to finish")
    func stepsInOrder() async throws {
        let harness = Harness()
        let log = StepLog()
        let directory = harness.directory
        let backend = harness.backend
        let store = try await harness.launch { step, transactionId in
            let onDisk = Self.transactionIdsOnDisk(directory, verifier: backend.transactionVerifier)
            let unfinished = await backend.unfinishedIds
            log.append("\(step.rawValue) disk=\(onDisk.contains(transactionId)) unfinished=\(unfinished.contains(transactionId))")
        }
        _ = try await store.purchase(Shop.premium)
        #expect(log.entries == [
            "received disk=false unfinished=true",
            "written disk=true unfinished=true",
            "finished disk=true unfinished=false",
            "emitted disk=true unfinished=false",
        ])
        // `posted` is a step only with a server link (this store has none).
        #expect(DeliveryStep.allCases.map(\.rawValue) == ["received", "written", "posted", "finished", "emitted"])
    }

    /// The transaction ids a fresh reader finds in the customer file (snapshot plus journal), without repairing it.
    static func transactionIdsOnDisk(_ directory: URL, verifier: any TransactionVerifier) -> Set<String> {
        let file = CustomerFile(directory: directory)
        guard var (record, _) = try? file.readSnapshot(now: Date()) else { return [] }
        _ = try? file.replayJournal(into: &record, now: Date(), signedForms: SignedForms(verifier: verifier))
        return Set(record.transactions.ids)
    }
}

/// Lines appended from any task. `@unchecked Sendable`: `lines` is used only under `lock`.
final class StepLog: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var entries: [String] { lock.withLock { lines } }
}
