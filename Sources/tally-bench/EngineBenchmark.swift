import Foundation
import Tally
import TallyCore
import TallySandbox
import TallySandboxBackend
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `tally-bench engine`: consumable purchases per second through the engine with durable persistence, beside
/// the raw rate of appending a line and flushing it (the call the engine's journal uses) in the same directory;
/// then the same purchases through a server link to a real `tally serve`, beside the engine alone (see
/// `EngineBenchmark+Linked.swift`).
enum EngineBenchmark {
    static let purchases = 2_000
    static let sandboxPurchases = 300

    static func run() async -> Bool {
        Report.header("engine")
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tally-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        do {
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            let raw = try rawSyncRate(file: root.appendingPathComponent("raw.journal"), lines: purchases)
            Report.line(String(format: "raw append + %@ of a 200-byte line: %.0f lines/s (%d lines in %@)",
                               syncCallName, raw, purchases, root.path))
            let fixture = BenchFixture()
            let backend = try EngineBenchBackend(catalog: fixture.catalog)
            try await backend.prepare(purchases, of: "coins.10")
            let engine = try await purchaseRate(
                backend: backend, fixture: fixture,
                directory: root.appendingPathComponent("engine"), count: purchases)
            Report.overTarget("engine purchases, durable, no subscribers", rate: engine, unit: "purchases/s",
                              target: raw / 2)
            Report.line(String(format: "(%.2f× the raw rate; target ≥ 0.50×)", engine / raw))

            let sandboxDirectory = root.appendingPathComponent("sandbox")
            _ = try SandboxDirectory(url: sandboxDirectory).create(
                catalog: fixture.catalog, configuration: fixture.configuration, start: fixture.start)
            let sandbox = try await purchaseRate(
                backend: SandboxBackend(directory: sandboxDirectory), fixture: fixture,
                directory: root.appendingPathComponent("engine-sandbox"), count: sandboxPurchases)
            Report.line(String(format: "through SandboxBackend (sandbox.sqlite, one transaction per change): "
                + "%.0f purchases/s over %d purchases (informative)", sandbox, sandboxPurchases))
            try await runLinked(root: root)
            return true
        } catch {
            FileHandle.standardError.write(Data("tally-bench engine: \(error)\n".utf8))
            return false
        }
    }

    /// `count` consumable purchases through a new store over `backend`; purchases per second.
    static func purchaseRate(backend: some StoreBackend, fixture: BenchFixture, directory: URL,
                             count: Int) async throws -> Double {
        let store = try await Store(backend: backend, catalog: fixture.catalog, configuration: fixture.configuration,
                                    directory: directory, locale: "en_US")
        let start = now()
        for _ in 0..<count {
            guard case .purchased = try await store.purchase("coins.10") else {
                throw BenchError("a bench purchase did not end purchased")
            }
        }
        let elapsed = seconds(since: start)
        let balance = await store.balance("coins")
        await store.close()
        guard balance == Decimal(10 * count) else {
            throw BenchError("after \(count) purchases of 10 coins the balance is \(balance)")
        }
        return Double(count) / elapsed
    }

    /// A monotonic instant for ``seconds(since:)``: the system's uptime in nanoseconds.
    static func now() -> UInt64 {
        DispatchTime.now().uptimeNanoseconds
    }

    /// Seconds from `start` (a ``now()``) until now.
    static func seconds(since start: UInt64) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
}
