import Foundation
import TallyCore

/// What ``TransactionRecorder`` needs of a store's rows, inside one write transaction: each method is one
/// step in the store's own SQL, and decides nothing (the recorder applies the rules).
public protocol TransactionRows {
    /// The store's error.
    associatedtype Failure: Error

    /// Makes sure the chains are not changed by another writer until this transaction ends (before their
    /// owners are read); a store with one writer at a time does nothing.
    func lockChains(_ chains: [String]) throws(Failure)
    /// The customer who owns the chain; nil for a chain never stored.
    func owner(ofChain chain: String) throws(Failure) -> String?
    /// The customer who minted the account token (canonical form, ``AccountToken/canonical(_:)``), or the identified
    /// customer a minter that was anonymous is aliased to (``CustomerStore/alias(_:to:at:)``); nil for a
    /// token never minted.
    func owner(ofToken token: String) throws(Failure) -> String?
    /// The stored row of a transaction id (locked until the transaction ends where the store locks rows); nil when none.
    func storedCopy(_ transactionId: String) throws(Failure) -> StoredTransactionRow?
    /// The transaction in a stored row's payload.
    func transaction(in row: StoredTransactionRow, id: String) throws(Failure) -> StoreTransaction
    /// Creates the customer's row when absent (and locks it where the store locks rows).
    func prepareCustomer(_ appUserId: String) throws(Failure)
    /// Files a chain never stored under `owner`.
    func fileChain(_ chain: String, owner: String) throws(Failure)
    /// Moves a chain and every stored transaction of it from `from` to `to`, and records the transfer at `date`:
    /// a new row, or, with `repeating`, that row of ``recentTransfers(ofChain:since:)`` rewritten to this move
    /// (its direction and date) with one more move counted.
    func moveChain(_ chain: String, from: String, to: String, date: Date, repeating: Int64?) throws(Failure)
    /// The chain's transfer rows dated `since` or later, oldest first.
    func recentTransfers(ofChain chain: String, since: Date) throws(Failure) -> [RecentTransfer]
    /// Inserts a transaction never stored, for `owner`.
    func insert(_ item: PreparedTransaction, owner: String, date: Date) throws(Failure)
    /// Replaces the stored copy of the transaction, which `item` supersedes, and files it under `owner`; the new
    /// copy is not superseded (its mark, if any, is cleared).
    func replace(_ item: PreparedTransaction, owner: String, date: Date) throws(Failure)
    /// The customer's stored transactions that are neither consumables nor marked superseded
    /// (TallyCore's `PeriodSupersession`).
    func unsupersededFacts(of appUserId: String) throws(Failure) -> [StoreTransaction]
    /// Marks each transaction superseded from `mark.from` by `mark.by`.
    func markSuperseded(_ marks: [PeriodSupersession.Mark]) throws(Failure)
    /// Clears the marks the transaction `transactionId` made.
    func clearSupersessions(by transactionId: String) throws(Failure)
    /// Clears every mark of the customer's transactions.
    func clearSupersessions(of appUserId: String) throws(Failure)
    /// Adds `amount` (negative to take away) to the customer's net of `currency`.
    func addToNet(of appUserId: String, currency: String, _ amount: Decimal) throws(Failure)
    /// Adds one to the customer's version; with `factsToo` its ``CustomerRecord/factsVersion`` becomes the new
    /// version as well (false only for a write that moved nothing but the nets).
    func bumpVersion(of appUserId: String, factsToo: Bool) throws(Failure)
}

extension TransactionRows {
    /// Adds one to the customer's version and to its facts version: the safe default for any write.
    func bumpVersion(of appUserId: String) throws(Failure) {
        try bumpVersion(of: appUserId, factsToo: true)
    }
}

/// A transfer row of one chain, as ``TransactionRecorder`` weighs it against the limit.
public struct RecentTransfer: Sendable {
    /// The row's key in the store.
    public var sequence: Int64
    /// The customer the chain last moved from in this row.
    public var fromAppUserId: String
    /// The customer it last moved to.
    public var toAppUserId: String
    /// When it last moved (whole milliseconds).
    public var date: Date
    /// How many moves the row stands for (a ping-pong between its two customers rewrites it).
    public var moves: Int64

    /// Creates a row.
    public init(sequence: Int64, fromAppUserId: String, toAppUserId: String, date: Date, moves: Int64) {
        self.sequence = sequence
        self.fromAppUserId = fromAppUserId
        self.toAppUserId = toAppUserId
        self.date = date
        self.moves = moves
    }
}

/// A transaction row as stored: who owns it, its chain and its payload (TallyCore's JSON).
public struct StoredTransactionRow: Sendable {
    /// The customer it is stored for.
    public var owner: String
    /// Its `originalTransactionId`.
    public var chain: String
    /// The stored JSON.
    public var payload: String

    /// Creates a row.
    public init(owner: String, chain: String, payload: String) {
        self.owner = owner
        self.chain = chain
        self.payload = payload
    }
}
