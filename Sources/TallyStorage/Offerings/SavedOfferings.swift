import Foundation

/// One saved version of the offerings document (docs/server.md, *Offerings*): the store keeps every one.
public struct SavedOfferings: Sendable, Hashable {
    /// The version: 1 for the first save, one more for each save after it.
    public var version: Int64
    /// The document's canonical JSON (TallyCore's `OfferingsDocument.jsonBytes()`).
    public var document: [UInt8]
    /// When it was saved.
    public var savedAt: Date
    /// How it was saved.
    public var origin: OfferingsOrigin
    /// The version a rollback restored; nil for other saves.
    public var rolledBackTo: Int64?

    /// Creates a saved version.
    public init(version: Int64, document: [UInt8], savedAt: Date, origin: OfferingsOrigin, rolledBackTo: Int64? = nil) {
        self.version = version
        self.document = document
        self.savedAt = savedAt
        self.origin = origin
        self.rolledBackTo = rolledBackTo
    }
}

/// How a version of the offerings document was saved.
public enum OfferingsOrigin: String, Sendable, Hashable, CaseIterable {
    /// By `tally serve` itself, from `offerings.file` and `tally.json`, into a store holding none; or when
    /// `tally.json`'s currencies changed (they change only with a restart).
    case seed
    /// By `PUT /v1/offerings` (the API or the dashboard).
    case put
    /// By `POST /v1/offerings/rollback`: an earlier version's document saved again.
    case rollback
}

/// Where the server keeps the offerings document's versions: the small contract each store driver implements
/// beside ``CustomerStore``. Saves are compare-and-set on the version, so servers saving at once never both win.
public protocol OfferingsStore: Sendable {
    /// The newest version's number; 0 when none was saved. One small read: servers of one database poll it.
    func offeringsVersion() throws(CustomerStoreError) -> Int64

    /// The version `version`, or the newest when nil; nil when there is none.
    func savedOfferings(version: Int64?) throws(CustomerStoreError) -> SavedOfferings?

    /// Saves `document` as version `following + 1` when the newest version is still `following` (0: none yet), in
    /// one durable write; nil (nothing written) when another version came first.
    func saveOfferings(_ document: [UInt8], following: Int64, origin: OfferingsOrigin, rolledBackTo: Int64?,
                       at date: Date) throws(CustomerStoreError) -> SavedOfferings?

    /// Up to `limit` versions older than `before` (nil: from the newest), newest first, with their documents.
    func offeringsHistory(before: Int64?, limit: Int) throws(CustomerStoreError) -> [SavedOfferings]
}
