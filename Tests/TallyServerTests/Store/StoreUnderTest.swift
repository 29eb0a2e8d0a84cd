import Foundation
import TallyCore
@testable import TallyPostgres
@testable import TallyServer
import TallyStorage
import Testing

/// The two implementations every `CustomerStore` contract test runs against.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    /// The stores a test over both runs against: PostgreSQL only where its tests run
    /// (``PostgresTestDatabase/canRun``), so without a cluster outside CI no PostgreSQL case exists to pass.
    static var tested: [StoreKind] { PostgresTestDatabase.canRun ? allCases : [.sqlite] }
}

/// What the PostgreSQL tests need: `TALLY_TEST_POSTGRES_URL`, set by `scripts/with-postgres.sh` (what `make test`
/// runs). Without it a PostgreSQL-only test is skipped by its `.enabled(if: PostgresTestDatabase.canRun)` trait
/// (shown as skipped, not passed) and a test over both stores has no PostgreSQL case (``StoreKind/tested``) —
/// except under `CI=true`, where a missing database is a failure (a CI that skipped them would prove nothing).
enum PostgresTestDatabase {
    /// Whether the PostgreSQL tests run: the cluster's URL is set, or `CI=true` (where its absence fails them).
    static var canRun: Bool {
        let environment = ProcessInfo.processInfo.environment
        return environment["CI"] == "true" || !(environment["TALLY_TEST_POSTGRES_URL"] ?? "").isEmpty
    }

    struct Missing: Error, CustomStringConvertible {
        var description: String {
            "TALLY_TEST_POSTGRES_URL is not set and CI=true: PostgreSQL tests must run in CI (make test starts a cluster)"
        }
    }

    /// The cluster's URL; throws when absent in CI; cancels the running test (case) when absent outside CI.
    static func url(for test: String = #function) throws -> String {
        let environment = ProcessInfo.processInfo.environment
        if let url = environment["TALLY_TEST_POSTGRES_URL"], !url.isEmpty { return url }
        if environment["CI"] == "true" { throw Missing() }
        try Test.cancel("PostgreSQL (\(test)): TALLY_TEST_POSTGRES_URL is not set; run `make test` or scripts/with-postgres.sh")
    }

    /// Creates a fresh database on the cluster and returns its URL.
    static func create(in url: String) throws -> (name: String, url: String) {
        let name = "tally_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let admin = try PostgresConnection(url: url, connectTimeoutSeconds: 5)
        try admin.executeScript("CREATE DATABASE \(name)")  // a generated name: letters, digits, underscores
        return (name, try databaseURL(url, name: name))
    }

    /// Drops a database made by ``create(in:)`` (its connections closed by force).
    static func drop(_ name: String, in url: String) {
        guard let admin = try? PostgresConnection(url: url, connectTimeoutSeconds: 5) else { return }
        try? admin.executeScript("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }

    /// `url` naming database `name` instead.
    static func databaseURL(_ url: String, name: String) throws -> String {
        guard var components = URLComponents(string: url) else { throw Missing() }
        components.path = "/" + name
        guard let result = components.string else { throw Missing() }
        return result
    }
}

/// A fresh, empty store of one kind: a temporary SQLite file, or a new database on the test cluster (dropped
/// when this value is released). ``open(readers:credits:)`` may be called again to reopen the same data.
final class StoreUnderTest: Sendable {
    let kind: StoreKind
    private let directory: TemporaryDirectory?
    private let cluster: String?
    private let database: (name: String, url: String)?

    /// A fresh store; for PostgreSQL without a cluster, see ``PostgresTestDatabase/url(for:)``.
    init(_ kind: StoreKind, test: String = #function) throws {
        self.kind = kind
        switch kind {
        case .sqlite:
            directory = try TemporaryDirectory()
            cluster = nil
            database = nil
        case .postgres:
            let url = try PostgresTestDatabase.url(for: test)
            directory = nil
            cluster = url
            database = try PostgresTestDatabase.create(in: url)
        }
    }

    deinit {
        if let cluster, let database { PostgresTestDatabase.drop(database.name, in: cluster) }
    }

    /// The URL of the PostgreSQL database (nil for SQLite).
    var url: String? { database?.url }

    /// The path of the SQLite database file (nil for PostgreSQL).
    var sqlitePath: String? { directory?.database }

    /// Opens the store on this data.
    func open(readers: Int = 4, credits: CurrencyCredits = StoreFixtures.credits,
              transferLimit: TransferLimit = TransferLimit()) throws -> any CustomerStore {
        if let directory { return try directory.open(readers: readers, credits: credits, transferLimit: transferLimit) }
        guard let database else { throw PostgresTestDatabase.Missing() }
        return try PostgresCustomerStore(url: database.url, poolSize: max(readers, 4), credits: credits,
                                         transferLimit: transferLimit)
    }
}
