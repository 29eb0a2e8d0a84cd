import Foundation


/// The entries behind ``CustomerState/ledger``: either given, or built from the classified history on first
/// read, so computing a state does not build (and sort) one entry per consumable purchase unless asked.
/// Equal, hashed and encoded as its entries.
struct LedgerStorage: Sendable, Hashable, Codable {
    private let box: Box

    /// Entries given as they are.
    init(_ entries: [LedgerEntry]) {
        box = Box(entries: entries)
    }

    /// The entries of ``Ledger`` over `history`, built when first read.
    init(history: PurchaseHistory, classified: ClassifiedHistory, through now: Date) {
        box = Box(source: Source(history: history, classified: classified, now: now))
    }

    /// The entries, sorted by date, then id.
    var entries: [LedgerEntry] { box.entries }

    static func == (left: LedgerStorage, right: LedgerStorage) -> Bool {
        left.box === right.box || left.entries == right.entries
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(entries)
    }

    init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode([LedgerEntry].self))
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(entries)
    }

    /// What the entries are built from.
    private struct Source: Sendable {
        let history: PurchaseHistory
        let classified: ClassifiedHistory
        let now: Date
    }

    /// Holds the entries once built.
    ///
    /// `@unchecked Sendable` is sound: `cached` and `source` are read and written only while `lock` is
    /// held, and every value they hold is itself `Sendable`.
    private final class Box: @unchecked Sendable {
        private let lock = NSLock()
        private var cached: [LedgerEntry]?
        private var source: Source?

        init(entries: [LedgerEntry]) {
            cached = entries
        }

        init(source: Source) {
            self.source = source
        }

        var entries: [LedgerEntry] {
            lock.lock()
            defer { lock.unlock() }
            if let cached { return cached }
            guard let source else { return [] }
            let built = Ledger(history: source.history, classified: source.classified, through: source.now).entries
            cached = built
            self.source = nil
            return built
        }
    }
}
