import Foundation
import TallyLocking
import TallyCore
import TallyCrypto
import TallyHTTP
import TallySandbox
import TallySandboxServer

/// `tally-bench sandbox-api`: the App Store Server API played by a real `tally sandbox serve` — Get Transaction
/// History pages per second through Apple's own Python client and over plain HTTP (wrk), beside a TallyHTTP handler
/// answering fixed bytes ("hello") under the same wrk load in the same run; and notifications delivered per second
/// by `tally sandbox serve` to a receiver (a TallyHTTP handler in this process) that answers 200 at once.
enum SandboxAPIBenchmark {
    static func run() -> Bool {
        Report.header("sandbox-api")
        guard let tally = BenchTools.tally() else {
            Report.line("skipped: no tally executable beside tally-bench (swift build -c release --product tally)")
            return true
        }
        guard let wrkPath = BenchTools.find("wrk") else {
            Report.line("skipped: wrk is not installed (apt-get install wrk)")
            return true
        }
        let seconds = max(1, ProcessInfo.processInfo.environment["TALLY_BENCH_SECONDS"].flatMap { Int($0) } ?? 10)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            let (transactionId, token, keyFile, key) = try prepare(folder)
            let serve = try ServeProcess(tally: tally, directory: folder)
            defer { serve.stop() }
            let wrk = Wrk(executable: wrkPath, seconds: seconds)
            let path = "/inApps/v2/history/\(transactionId)"
            let api = try wrk.run(serve.baseURL + path, headers: ["Authorization: Bearer \(token)"])
            let hello = try HTTPServer(configuration: HTTPServer.Configuration(port: 0, threads: 2)) { _ in
                HTTPResponse(status: 200, headers: [HTTPResponse.Field("Content-Type", "text/plain")], body: Array("hello".utf8))
            }
            let plain = try wrk.run("http://127.0.0.1:\(hello.port)/hello")
            hello.stop()
            let apple = try appleClientRate(baseURL: serve.baseURL, keyFile: keyFile, key: key, transactionId: transactionId,
                                            seconds: Double(seconds))
            Report.line(String(format: "Get Transaction History (20 signed transactions a page), wrk: %.0f pages/s, p50 %.2f ms, p99 %.2f ms",
                               api.requestsPerSecond, api.p50 * 1e3, api.p99 * 1e3))
            Report.line(String(format: "the same pages through Apple's Python AppStoreServerAPIClient (one client): %.0f pages/s", apple))
            Report.line(String(format: "libmicrohttpd hello (TallyHTTP, fixed bytes), wrk: %.0f req/s", plain.requestsPerSecond))
            Report.line(String(format: "history pages vs hello: %.1f%%; Apple's client vs wrk on the same pages: %.1f%%",
                               100 * api.requestsPerSecond / plain.requestsPerSecond, 100 * apple / api.requestsPerSecond))
            if api.non2xx > 0 { Report.line("WARNING: \(api.non2xx) non-2xx answers of \(api.requests)") }
            let delivered = try deliveryRate(tally: tally, folder: folder.appendingPathComponent("delivery"))
            Report.line(String(format: "notifications delivered by tally sandbox serve to a receiver answering at once: "
                + "%.0f/s (%d in %.2f s); vs hello: %.2f%%", delivered.rate, delivered.count, delivered.seconds,
                               100 * delivered.rate / plain.requestsPerSecond))
            return true
        } catch {
            Report.line("could not run: \(error)")
            return false
        }
    }

    /// Notifications per second from a real `tally sandbox serve`: `count` coin purchases are made with the
    /// notification URL set (each records its ONE_TIME_CHARGE, signed when made), then the sender is started and
    /// timed from its start (process start-up included) until the receiver has answered every one.
    private static func deliveryRate(tally: URL, folder: URL, count: Int = 400) throws
        -> (rate: Double, count: Int, seconds: Double)
    {
        let received = Counter()
        let receiver = try HTTPServer(configuration: HTTPServer.Configuration(port: 0, threads: 2)) { _ in
            received.add()
            return HTTPResponse(status: 200)
        }
        defer { receiver.stop() }
        let (directory, _) = try marketSandbox(in: folder)
        _ = try BenchTools.output(of: tally, ["sandbox", "set", "notification-url",
                                              "http://127.0.0.1:\(receiver.port)/apple", "--data", folder.path])
        for _ in 0..<count { _ = try directory.update { sandbox in sandbox.purchase("market.coins.10") } }
        let start = Date()
        let serve = try ServeProcess(tally: tally, directory: folder)
        defer { serve.stop() }
        let deadline = start.addingTimeInterval(120)
        while received.value < count, Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        let seconds = Date().timeIntervalSince(start)
        guard received.value >= count else {
            throw BenchError("the receiver got \(received.value) of \(count) notifications within 120 s")
        }
        return (Double(count) / seconds, count, seconds)
    }

    /// Requests the receiver answered.
    private final class Counter: Sendable {
        private let count = Locked(0)
        func add() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }

    /// A new sandbox of the Market example in `folder`, and its app configuration.
    private static func marketSandbox(in folder: URL) throws -> (SandboxDirectory, AppConfiguration) {
        let example = BenchTools.packageRoot.appendingPathComponent("Examples/Market")
        let catalog = try Catalog(storeKitData: try Data(contentsOf: example.appendingPathComponent("Market.storekit")),
                                  fileName: "Market.storekit")
        let configuration = try AppConfiguration(jsonData: try Data(contentsOf: example.appendingPathComponent("tally.json")),
                                                 fileName: "tally.json")
        let directory = SandboxDirectory(url: folder)
        _ = try directory.create(catalog: catalog, configuration: configuration, start: Date())
        return (directory, configuration)
    }

    /// A sandbox of 45 coin purchases, a registered key, a one-hour token, and the key's file.
    private static func prepare(_ folder: URL) throws -> (String, String, URL, SandboxAPIKeys.Created) {
        let (directory, configuration) = try marketSandbox(in: folder)
        var first = ""
        for _ in 0..<45 {
            let id: String? = try directory.update { sandbox in sandbox.purchase("market.coins.10").transaction?.transactionId }
            if first.isEmpty, let id { first = id }
        }
        let created = try SandboxAPIKeys(directory: folder).create()
        let key = try PrivateKey.parse(pemOrDER: Data(created.privateKeyPEM.utf8))
        let now = Date()
        let token = try ServerAPIToken(keyId: created.keyId, issuerId: created.issuerId, bundleId: configuration.bundleId,
                                       issuedAt: now, expiresAt: now.addingTimeInterval(3_500)).signed(with: key)
        return (first, token, URL(fileURLWithPath: created.privateKeyPath), created)
    }

    /// Pages per second Apple's client gets for `seconds`, paging through the history again and again.
    private static func appleClientRate(baseURL: String, keyFile: URL, key: SandboxAPIKeys.Created, transactionId: String,
                                        seconds: Double) throws -> Double {
        let script = """
            import sys, time
            from appstoreserverlibrary.api_client import AppStoreServerAPIClient, GetTransactionHistoryVersion
            from appstoreserverlibrary.models.Environment import StoreEnvironment
            from appstoreserverlibrary.models.TransactionHistoryRequest import TransactionHistoryRequest
            base, path, kid, iss, bid, tx, seconds = sys.argv[1:8]
            client = AppStoreServerAPIClient(open(path, "rb").read(), kid, iss, bid, StoreEnvironment.SANDBOX)
            client._base_url = base
            pages, revision, end = 0, None, time.monotonic() + float(seconds)
            start = time.monotonic()
            while time.monotonic() < end:
                page = client.get_transaction_history(tx, revision, TransactionHistoryRequest(), GetTransactionHistoryVersion.V2)
                pages += 1
                revision = page.revision if page.hasMore else None
            print(pages / (time.monotonic() - start))
            """
        let output = try BenchTools.output(of: URL(fileURLWithPath: "/usr/bin/env"), [
            "python3", "-c", script, baseURL, keyFile.path, key.keyId, key.issuerId, "com.example.market", transactionId,
            String(seconds),
        ])
        guard let rate = Double(output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw BenchError("Apple's client printed no rate (pip install app-store-server-library): \(output)")
        }
        return rate
    }

    /// `tally sandbox serve` on a free loopback port.
    private final class ServeProcess {
        let process = Process()
        var baseURL = ""

        init(tally: URL, directory: URL) throws {
            process.executableURL = tally
            process.arguments = ["sandbox", "serve", "--listen", "127.0.0.1:0", "--data", directory.path]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            var text = ""
            let deadline = Date().addingTimeInterval(30)
            while !text.contains("\n"), Date() < deadline {
                text += String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
            }
            guard let start = text.range(of: "http://"), let end = text.range(of: "/inApps") else {
                throw BenchError("tally sandbox serve printed no address: \(text)")
            }
            baseURL = String(text[start.lowerBound..<end.lowerBound])
        }

        func stop() {
            guard process.isRunning else { return }
            process.terminate()
            process.waitUntilExit()
        }
    }
}
