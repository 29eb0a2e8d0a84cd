import CSQLite
import Foundation
import TallyCore
import TallyCrypto
import TallyHTTP
import TallySQLiteStore
import TallySandbox
import TallyServer
import TallyStorage

/// `tally-bench dashboard`: the dashboard's endpoints on a store of 100,000 customers and 1,000,000 transactions
/// (`TALLY_BENCH_DASHBOARD_CUSTOMERS` scales it; 10 transactions each), answered by the API in process (routing, key,
/// SQL, JSON; no socket), beside a plain `SELECT count(*)` over the transactions table in the same run.
/// Limits (issue 16): overview < 250 ms, customer search < 50 ms.
enum DashboardBenchmark {
    static var customers: Int {
        max(1_000, ProcessInfo.processInfo.environment["TALLY_BENCH_DASHBOARD_CUSTOMERS"].flatMap { Int($0) } ?? 100_000)
    }

    static func run() -> Bool {
        Report.header("dashboard (\(customers) customers, \(customers * 10) transactions)")
        do {
            return try measure()
        } catch {
            print("  failed: \(error)")
            return false
        }
    }

    private static func measure() throws -> Bool {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-bench-dashboard-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // TALLY_BENCH_DASHBOARD_KEEP=1 keeps the database (for EXPLAIN QUERY PLAN) and prints where.
        let keep = ProcessInfo.processInfo.environment["TALLY_BENCH_DASHBOARD_KEEP"] == "1"
        defer { if keep { Report.line("kept \(folder.path)") } else { try? FileManager.default.removeItem(at: folder) } }
        let example = BenchTools.packageRoot.appendingPathComponent("Examples/Market")
        for name in ["Market.storekit", "tally.json"] {
            try FileManager.default.copyItem(at: example.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        let authority = try SandboxCertificateAuthority.generate(now: Date())
        try authority.rootPEM.write(to: folder.appendingPathComponent("root.pem"), atomically: true, encoding: .utf8)
        let key = "tk_dashboard_bench"
        let sha = ECDSA.sha256(Array(key.utf8)).map { String(format: "%02x", $0) }.joined()
        let document: [String: Any] = [
            "storekit": "Market.storekit", "appConfiguration": "tally.json",
            "verification": ["bundleId": "com.example.market", "environments": ["Sandbox"], "roots": ["root.pem"]],
            "keys": [["name": "dashboard", "role": "dashboard", "sha256": sha]],
            "rateLimit": ["requestsPerSecond": 10_000_000, "burst": 1_000_000],
        ]
        let configFile = folder.appendingPathComponent("tally-server.json")
        try JSONSerialization.data(withJSONObject: document).write(to: configFile)
        let configuration = try ServerConfiguration(contentsOf: configFile)
        let path = folder.appendingPathComponent("tally.sqlite").path
        // The schema, from the store itself; then rows written straight into it in one transaction.
        _ = try SQLiteCustomerStore(path: path, credits: configuration.credits, readers: 1)
        let now = Date()
        let seconds = try Stopwatch.seconds { try fill(path, now: now) }
        Report.line(String(format: "built in %.1f s", seconds))
        let store = try SQLiteCustomerStore(path: path, credits: configuration.credits)
        let api = try EntitlementAPI(configuration: configuration, store: store)
        func get(_ path: String, _ query: [String: String], finds: Bool = true) throws -> Double {
            let request = HTTPRequest(method: "GET", path: path, query: query, headers: ["authorization": "Bearer \(key)"])
            var response = HTTPResponse(status: 0)
            let time = Stopwatch.best(of: 5) { response = api.handle(request) }
            guard response.status == 200 else { throw BenchError("\(path) answered \(response.status)") }
            let found = String(decoding: response.body, as: UTF8.self).contains("user-")
            guard found == finds else { throw BenchError("\(path) \(query): found \(found), expected \(finds)") }
            return time * 1000
        }
        let count = try Stopwatch.best(of: 5) { try countTransactions(path) } * 1000
        Report.line(String(format: "SELECT count(*) FROM transactions: %.2f ms (the peer)", count))
        var ok = true
        for days in [7, 30, 90] {
            let overview = try get("/v1/dashboard/overview", ["days": String(days)], finds: false)
            Report.underLimit("GET /v1/dashboard/overview?days=\(days) (\(String(format: "%.2f", overview / count))× count(*))",
                              value: overview, unit: "ms", limit: 250)
            ok = ok && overview < 250
        }
        for (what, q) in [("a transactionId", "tx-\(customers / 2)-5"), ("an originalTransactionId", "tx-\(customers / 2)-0"),
                          ("an appUserId prefix", "user-000010"), ("nothing", "no-such-id")] {
            let search = try get("/v1/dashboard/customers", ["q": q], finds: q != "no-such-id")
            Report.underLimit("GET /v1/dashboard/customers by \(what) (\(String(format: "%.2f", search / count))× count(*))",
                              value: search, unit: "ms", limit: 50)
            ok = ok && search < 50
        }
        let latest = try get("/v1/dashboard/transactions", ["refunded": "true"])
        Report.line(String(format: "GET /v1/dashboard/transactions?refunded=true: %.2f ms (no limit set)", latest))
        return ok
    }

    /// 10 transactions per customer: even customers a monthly subscription renewed 10 times (every fourth ended two
    /// months ago; every 50th in billing retry), odd ones 10 coin purchases over the last year; 2% refunded.
    private static func fill(_ path: String, now: Date) throws {
        var database: OpaquePointer?
        guard sqlite3_open_v2(path, &database, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else { throw BenchError("open \(path)") }
        defer { sqlite3_close_v2(database) }
        func exec(_ sql: String) throws {
            guard sqlite3_exec(database, sql, nil, nil, nil) == SQLITE_OK else {
                throw BenchError("\(sql): \(String(cString: sqlite3_errmsg(database)))")
            }
        }
        func prepare(_ sql: String) throws -> OpaquePointer? {
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(database, sql, -1, &statement, nil) == SQLITE_OK else {
                throw BenchError("\(sql): \(String(cString: sqlite3_errmsg(database)))")
            }
            return statement
        }
        func step(_ statement: OpaquePointer?, _ values: [Any]) throws {
            for (index, value) in values.enumerated() {
                let position = Int32(index + 1)
                if let text = value as? String {
                    sqlite3_bind_text(statement, position, text, -1, tally_sqlite_transient())
                } else if let number = value as? Int64 {
                    sqlite3_bind_int64(statement, position, number)
                }
            }
            guard sqlite3_step(statement) == SQLITE_DONE else { throw BenchError(String(cString: sqlite3_errmsg(database))) }
            sqlite3_reset(statement)
        }
        try exec("PRAGMA synchronous = OFF")
        try exec("BEGIN")
        let customer = try prepare("INSERT INTO customers (app_user_id, version, first_seen_at) VALUES (?, 1, ?)")
        let chain = try prepare("INSERT INTO chains (original_transaction_id, app_user_id) VALUES (?, ?)")
        let transaction = try prepare("""
            INSERT INTO transactions (transaction_id, original_transaction_id, app_user_id, source, payload, updated_at,
                consumable) VALUES (?, ?, ?, 'signedTransaction', ?, ?, ?)
            """)
        let renewal = try prepare("INSERT INTO renewal_infos (original_transaction_id, payload, updated_at) VALUES (?, ?, ?)")
        defer { [customer, chain, transaction, renewal].forEach { sqlite3_finalize($0) } }
        let nowMs = Int64(now.timeIntervalSince1970 * 1000)
        let day: Int64 = 86_400_000, month = 30 * day
        var random = SystemRandomNumberGenerator()
        for index in 0..<customers {
            let user = String(format: "user-%07d", index)
            let firstSeen = nowMs - Int64.random(in: 0..<(365 * day), using: &random)
            try step(customer, [user, firstSeen])
            let subscriber = index % 2 == 0
            let end = index % 4 == 0 ? nowMs - 2 * month : nowMs + Int64.random(in: 1..<month, using: &random)
            for n in 0..<10 {
                let id = "tx-\(index)-\(n)"
                let original = subscriber ? "tx-\(index)-0" : id
                if !subscriber || n == 0 { try step(chain, [original, user]) }
                let purchase = subscriber ? end - Int64(10 - n) * month : nowMs - Int64.random(in: 0..<(365 * day), using: &random)
                let refunded = Int.random(in: 0..<50, using: &random) == 0
                var payload = #"{"transactionId":"\#(id)","originalTransactionId":"\#(original)","bundleId":"com.example.market","#
                payload += subscriber
                    ? #""productId":"market.pro.monthly","subscriptionGroupIdentifier":"6E1A1000","purchaseDate":\#(purchase),"expiresDate":\#(purchase + month),"quantity":1,"type":"Auto-Renewable Subscription","#
                    : #""productId":"market.coins.10","purchaseDate":\#(purchase),"quantity":1,"type":"Consumable","#
                payload += #""inAppOwnershipType":"PURCHASED","signedDate":\#(purchase),"#
                if refunded { payload += #""revocationReason":0,"revocationDate":\#(purchase + day),"# }
                payload += #""environment":"Sandbox","currency":"USD","price":\#(subscriber ? 9990 : 990)}"#
                try step(transaction, [id, original, user, payload, purchase, Int64(subscriber ? 0 : 1)])
            }
            if subscriber, index % 50 == 0 {
                try step(renewal, ["tx-\(index)-0", #"{"originalTransactionId":"tx-\#(index)-0","productId":"market.pro.monthly","autoRenewStatus":1,"isInBillingRetryPeriod":true}"#, nowMs])
            }
        }
        try exec("COMMIT")
        try exec("ANALYZE")
    }

    private static func countTransactions(_ path: String) throws {
        var database: OpaquePointer?
        guard sqlite3_open_v2(path, &database, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { throw BenchError("open") }
        defer { sqlite3_close_v2(database) }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(database, "SELECT count(*) FROM transactions", -1, &statement, nil) == SQLITE_OK,
              sqlite3_step(statement) == SQLITE_ROW else { throw BenchError("count(*)") }
        sqlite3_finalize(statement)
    }
}
