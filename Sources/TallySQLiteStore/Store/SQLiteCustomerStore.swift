import Foundation
import TallyCore
import TallyStorage
import TallySQLite

/// The default ``CustomerStore``: one SQLite database file in write-ahead-log mode.
///
/// Writes go through one connection with group commit (`WriteQueue`): writes arriving together share one
/// `BEGIN IMMEDIATE` transaction, each in its own savepoint, and one COMMIT with `synchronous=FULL`, which
/// is durable before any of them returns; reads use a small pool of other connections, each query set
/// in its own read transaction (one consistent snapshot), running beside the writer. Opening creates the file
/// when absent and runs the schema migrations (`StoreSchema`).
public final class SQLiteCustomerStore: CustomerStore {
    /// The database file name ``init(directory:credits:readers:transferLimit:)`` uses.
    public static let fileName = "tally.sqlite"

    /// The database file.
    public let path: String
    /// What each transaction credits: the balances table is kept with it.
    public let credits: CurrencyCredits
    /// How often one chain may move within the hour under ``OwnershipPolicy/transfer``.
    public let transferLimit: TransferLimit
    let writes: WriteQueue
    let readers: ReadConnectionPool

    /// Opens (creating when absent) the database file at `path`, migrates its schema, and rebuilds the
    /// materialised balances when they were built with other `credits` (a changed `tally.json`) or never.
    ///
    /// - Parameters:
    ///   - path: the database file's path.
    ///   - credits: what each transaction credits (`CurrencyCredits` of the served catalog and
    ///     `tally.json`).
    ///   - readers: how many read connections to keep (at least 1).
    ///   - busyTimeoutMilliseconds: how long a call waits for another process's lock on the file before
    ///     failing with ``CustomerStoreError/Reason/busy``.
    ///   - transferLimit: how often one chain may move between customers (`transfersPerChainPerHour`).
    /// - Throws: ``CustomerStoreError/Reason/unavailable`` when the file cannot be opened, created or migrated,
    ///   or its schema is newer than this code knows.
    public init(path: String, credits: CurrencyCredits, readers: Int = 4,
                busyTimeoutMilliseconds: Int = 5_000, transferLimit: TransferLimit = TransferLimit()) throws(CustomerStoreError) {
        self.path = path
        self.credits = credits
        self.transferLimit = transferLimit
        let timeout = Int32(clamping: max(busyTimeoutMilliseconds, 0))
        do {
            let writer = try SQLiteConnection(path: path, busyTimeoutMilliseconds: timeout)
            try writer.configureForStore()
            try writer.enableWriteAheadLog()
            try writer.migrate()
            try writer.immediateTransaction { () throws(SQLiteError) in try writer.rebuildBalancesIfNeeded(credits) }
            try writer.keepStatementJournalsInMemory()
            self.writes = WriteQueue(writer)
            self.readers = try ReadConnectionPool(count: readers) { () throws(SQLiteError) in
                let reader = try SQLiteConnection(path: path, busyTimeoutMilliseconds: timeout)
                try reader.configureForStore()
                try reader.execute("PRAGMA query_only = ON")
                return reader
            }
        } catch {
            throw CustomerStoreError(.unavailable, "the customer store '\(path)' cannot be opened: \(error.message)",
                                     underlying: error)
        }
    }

    /// Opens (creating when absent) `directory/tally.sqlite`, creating the directory too.
    public convenience init(directory: String, credits: CurrencyCredits, readers: Int = 4,
                            transferLimit: TransferLimit = TransferLimit()) throws(CustomerStoreError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw CustomerStoreError(.unavailable, "the data directory '\(directory)' cannot be created: "
                + "\(error.localizedDescription)", underlying: error)
        }
        try self.init(path: (directory as NSString).appendingPathComponent(Self.fileName), credits: credits,
                      readers: readers, transferLimit: transferLimit)
    }

    /// Everything stored for `appUserId`, from one snapshot; an empty record (version 0) for a customer never seen.
    public func customer(_ appUserId: String) throws(CustomerStoreError) -> CustomerRecord {
        do {
            return try readers.withConnection { (connection) throws(SQLiteError) in
                try connection.readTransaction { () throws(SQLiteError) in try connection.customerRecord(appUserId) }
            }
        } catch {
            throw error.storeError()
        }
    }

    /// The version, nets and non-consumable transactions of `appUserId`, from one snapshot.
    public func customerState(_ appUserId: String) throws(CustomerStoreError) -> CustomerRecord {
        try readState(appUserId, at: nil)
    }

    /// ``customerState(_:)`` for a state at `date`: the periods superseded by then are left out.
    public func customerState(_ appUserId: String, at date: Date) throws(CustomerStoreError) -> CustomerRecord {
        try readState(appUserId, at: date)
    }

    private func readState(_ appUserId: String, at date: Date?) throws(CustomerStoreError) -> CustomerRecord {
        do {
            return try readers.withConnection { (connection) throws(SQLiteError) in
                try connection.readTransaction { () throws(SQLiteError) in
                    try connection.customerStateRecord(appUserId, at: date)
                }
            }
        } catch {
            throw error.storeError()
        }
    }

    /// Runs `body` as one all-or-nothing write on the write connection (a savepoint in a group's transaction,
    /// see ``WriteQueue/perform(_:)``); returns after the COMMIT is durable; maps failures to store errors.
    /// `body` sees the writes committed before it and those of earlier writes in its group.
    func write<T: Sendable>(_ body: (SQLiteConnection) throws(SQLiteError) -> T) throws(CustomerStoreError) -> T {
        do {
            return try writes.perform(body)
        } catch {
            throw error.storeError()
        }
    }
}
