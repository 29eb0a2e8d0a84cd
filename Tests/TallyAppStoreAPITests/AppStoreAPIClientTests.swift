import Foundation
import Synchronization
import Testing
import TallyAppStoreAPI
import TallyCrypto

/// The client against a real `tally sandbox serve` on loopback: it walks a whole history, waits out a 429 as
/// Apple's `Retry-After` says, retries a retryable 5xx, and never retries a 401.
@Suite(.serialized) struct AppStoreAPIClientTests {
    static var tally: URL {
        #if os(macOS)
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("tally")
        }
        #endif
        return Bundle.main.bundleURL.appendingPathComponent("tally")
    }

    static let storeKit = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/Market/Market.storekit")

    /// A sandbox with `coins` coin purchases, a key, and `tally sandbox serve` running with `extra` options.
    final class World {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-api-\(UUID().uuidString)")
        let serve = Process()
        var baseURL = URL(fileURLWithPath: "/")
        var keyId = "", issuerId = ""
        var key: PrivateKey?
        var firstTransaction = ""

        init(coins: Int, serveOptions: [String] = []) throws {
            try run(["sandbox", "init", "--config", AppStoreAPIClientTests.storeKit.path, "--data", directory.path])
            for _ in 0..<coins { try run(["sandbox", "buy", "market.coins.10", "--data", directory.path]) }
            let made = try run(["sandbox", "api-key", "--json", "--data", directory.path])
            let object = try #require(try JSONSerialization.jsonObject(with: Data(made.utf8)) as? [String: Any])
            keyId = object["keyId"] as? String ?? ""
            issuerId = object["issuerId"] as? String ?? ""
            key = try PrivateKey.parse(pemOrDER: Data(contentsOf: URL(fileURLWithPath: object["privateKeyPath"] as? String ?? "")))
            let history = try run(["sandbox", "history", "--json", "--data", directory.path])
            let items = (try JSONSerialization.jsonObject(with: Data(history.utf8)) as? [String: Any])?["transactions"] as? [[String: Any]]
            firstTransaction = (items?.first?["transaction"] as? [String: Any])?["transactionId"] as? String ?? ""
            serve.executableURL = AppStoreAPIClientTests.tally
            serve.arguments = ["sandbox", "serve", "--listen", "127.0.0.1:0", "--data", directory.path] + serveOptions
            let output = Pipe()
            serve.standardOutput = output
            try serve.run()
            var text = ""
            let deadline = Date().addingTimeInterval(20)
            while !text.contains("\n"), Date() < deadline {
                text += String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
            }
            guard let start = text.range(of: "http://"), let end = text.range(of: "/inApps"),
                  let url = URL(string: String(text[start.lowerBound..<end.lowerBound])) else {
                throw HarnessError("tally sandbox serve printed no address: \(text)")
            }
            baseURL = url
        }

        deinit {
            serve.terminate()
            serve.waitUntilExit()
            try? FileManager.default.removeItem(at: directory)
        }

        @discardableResult
        func run(_ arguments: [String]) throws -> String {
            let process = Process()
            process.executableURL = AppStoreAPIClientTests.tally
            process.arguments = arguments
            let out = Pipe()
            process.standardOutput = out
            try process.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw HarnessError("tally \(arguments.joined(separator: " ")) failed") }
            return String(decoding: data, as: UTF8.self)
        }

        func client(key other: PrivateKey? = nil, retry: AppStoreAPIRetryPolicy = AppStoreAPIRetryPolicy(),
                    waits: WaitLog) throws -> AppStoreAPIClient {
            let configuration = AppStoreAPIClient.Configuration(
                baseURL: baseURL, keyId: keyId, issuerId: issuerId, bundleId: "com.example.market",
                key: try #require(other ?? key), timeout: 10)
            return AppStoreAPIClient(configuration: configuration, retry: retry, sleep: { seconds in
                waits.append(seconds)
                Thread.sleep(forTimeInterval: min(seconds, 2))
            })
        }
    }

    /// The waits the client asked for.
    final class WaitLog: Sendable {
        private let values = Mutex<[TimeInterval]>([])
        func append(_ seconds: TimeInterval) { values.withLock { $0.append(seconds) } }
        var all: [TimeInterval] { values.withLock { $0 } }
    }

    struct HarnessError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    @Test func theWholeHistoryPagesToTheEndAndTheFinalRevisionBringsOnlyNewerChanges() throws {
        let world = try World(coins: 45)
        let waits = WaitLog()
        let client = try world.client(waits: waits)
        let all = try client.wholeTransactionHistory(world.firstTransaction, from: nil)
        #expect(all.signedTransactions.count == 45)
        #expect(waits.all.isEmpty, "nothing to retry")
        let again = try client.wholeTransactionHistory(world.firstTransaction, from: all.revision)
        #expect(again.signedTransactions.isEmpty)
        try world.run(["sandbox", "buy", "market.coins.100", "--data", world.directory.path])
        let newer = try client.wholeTransactionHistory(world.firstTransaction, from: all.revision)
        #expect(newer.signedTransactions.count == 1, "only what changed since the final revision")
        #expect(!(try client.transactionInfo(world.firstTransaction)).isEmpty)
    }

    @Test func a429IsWaitedOutAsRetryAfterSaysAndTheWalkFinishes() throws {
        // One request per 2 s per key: three pages cannot pass without waiting, however slow the machine.
        let world = try World(coins: 45, serveOptions: ["--rate-limit", "0.5"])
        let waits = WaitLog()
        let client = try world.client(waits: waits)
        let all = try client.wholeTransactionHistory(world.firstTransaction, from: nil)
        #expect(all.signedTransactions.count == 45)
        let recorded = waits.all
        #expect(!recorded.isEmpty, "three pages at one request per 2 s meet the limit")
        #expect(recorded.allSatisfy { $0 > 0 && $0 <= 2.0 }, "Retry-After asks for at most 2 s at 0.5/s: \(recorded)")
    }

    @Test func a401IsAConfigurationProblemAndIsNotRetried() throws {
        let world = try World(coins: 1)
        let waits = WaitLog()
        let client = try world.client(key: try PrivateKey.newP256(), waits: waits)
        let error = try #require(throws: AppStoreAPIClientError.self) { try client.transactionInfo(world.firstTransaction) }
        #expect(error.reason == .unauthorized && error.status == 401)
        #expect(waits.all.isEmpty, "a 401 is not retried")
    }

    @Test func anUnknownTransactionIs404WithApplesCodeAndIsNotRetried() throws {
        let world = try World(coins: 1)
        let waits = WaitLog()
        let client = try world.client(waits: waits)
        let error = try #require(throws: AppStoreAPIClientError.self) { try client.transactionInfo("99999999999") }
        #expect(error.reason == .apiError && error.status == 404 && error.errorCode == 4_040_010)
        #expect(waits.all.isEmpty)
    }

    @Test func noAnswerIsRetriedWithBoundedBackOffThenReported() throws {
        // A port nothing listens on: each attempt fails to connect.
        let waits = WaitLog()
        let configuration = AppStoreAPIClient.Configuration(
            baseURL: try #require(URL(string: "http://127.0.0.1:9")), keyId: "K", issuerId: "I", bundleId: "b",
            key: try PrivateKey.newP256(), timeout: 2)
        let client = AppStoreAPIClient(configuration: configuration,
                                       retry: AppStoreAPIRetryPolicy(maximumAttempts: 3, baseDelay: 0.01, maximumDelay: 0.05),
                                       sleep: { seconds in waits.append(seconds) })
        let error = try #require(throws: AppStoreAPIClientError.self) { try client.transactionInfo("1") }
        #expect(error.reason == .transport)
        let recorded = waits.all
        #expect(recorded.count == 2 && recorded.allSatisfy { $0 > 0 && $0 <= 0.05 }, "\(recorded)")
    }
}
