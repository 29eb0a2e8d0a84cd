import Foundation

/// Chains already verified, keyed by the exact `x5c` text of leaf and intermediate, so a JWS from a
/// known leaf costs one validity-window comparison instead of an X.509 chain verification.
///
/// `@unchecked Sendable`: all mutable state is read and written only while holding `lock`.
final class ChainCache: @unchecked Sendable {
    /// What a verified chain leaves behind.
    struct Entry: Sendable {
        /// The leaf's key, parsed once.
        var leafKey: PublicKey
        /// The span in which leaf, intermediate and root are all valid; validity at another
        /// effective date is re-checked against it.
        var validity: ClosedRange<Date>
        /// Leaf, intermediate and trusted root, for later revocation checks.
        var chain: [Certificate]
        /// Until when an online revocation check of this chain stays fresh.
        var revocationCheckedUntil: Date?
    }

    private let lock = NSLock()
    private var entries: [String: Entry] = [:]
    /// Exact header segments already seen, with their chain key and entry: one hash per lookup.
    private var headers: [Substring: (key: String, entry: Entry)] = [:]
    /// The header of the last hit: one byte comparison instead of hashing ~3.5 KB when, as usual, one
    /// signing certificate signs everything in a row.
    private var last: (header: Substring, key: String, entry: Entry)?
    private let capacity: Int
    /// Chains refused for a reason that holds at every date (untrusted root, missing marker, bad key), by the exact
    /// `x5c` text of leaf and intermediate: a repeated forged chain is refused without parsing it again. Only the
    /// chain's verdict is kept; every JWS is still checked on its own.
    private var refusals: [String: VerificationFailure] = [:]

    /// Longest header segment remembered.
    static let maximumHeaderLength = 8192

    /// A cache holding at most `capacity` chains.
    init(capacity: Int = 64) { self.capacity = capacity }

    /// The cache key for a leaf and intermediate.
    static func key(leaf: String, intermediate: String) -> String { leaf + "|" + intermediate }

    /// The chain key and entry remembered for an exact header segment (already checked: ES256, three certificates).
    func lookup(header: Substring) -> (key: String, entry: Entry)? {
        lock.withLock {
            if let last, Self.sameBytes(last.header, header) { return (last.key, last.entry) }
            guard let found = headers[header] else { return nil }
            if let stored = headers.index(forKey: header) { last = (headers.keys[stored], found.key, found.entry) }
            return found
        }
    }

    /// Byte equality of two header segments (memcmp over contiguous UTF-8).
    static func sameBytes(_ a: Substring, _ b: Substring) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        return a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y in
                guard let left = x.baseAddress, let right = y.baseAddress else { return x.count == y.count }
                return memcmp(left, right, x.count) == 0
            }
        }.flatMap { $0 } ?? a.utf8.elementsEqual(b.utf8)
    }

    /// The entry for `key`, if cached.
    func entry(_ key: String) -> Entry? {
        lock.withLock { entries[key] }
    }

    /// Stores an entry and remembers `header` as leading to it.
    func store(_ entry: Entry, key: String, header: Substring?) {
        lock.withLock {
            last = nil
            if entries.count >= capacity, entries[key] == nil {
                entries.removeAll(keepingCapacity: true)
                headers.removeAll(keepingCapacity: true)
            }
            let previous = entries.updateValue(entry, forKey: key)
            if previous != nil {
                // Keep remembered headers of this chain in step (revocation freshness changed).
                for (segment, value) in headers where value.key == key { headers[segment] = (key, entry) }
            }
            // A fresh copy, so the cache never keeps a whole caller's JWS alive; padded headers (real ones
            // are ~3.5 KB) are not remembered, so nobody can fill memory with them.
            if let header, header.utf8.count <= Self.maximumHeaderLength, headers.count < capacity * 4 {
                headers[Substring(String(header))] = (key, entry)
            }
        }
    }

    /// The refusal remembered for the chain `key`.
    func refusal(_ key: String) -> VerificationFailure? {
        lock.withLock { refusals[key] }
    }

    /// Remembers that the chain `key` was refused for a reason independent of the date; a full table starts
    /// over. Keys longer than two real certificates' text are not remembered, so nobody can fill memory.
    func storeRefusal(_ failure: VerificationFailure, key: String) {
        guard key.utf8.count <= Self.maximumHeaderLength else { return }
        lock.withLock {
            if refusals.count >= capacity * 4 { refusals.removeAll(keepingCapacity: true) }
            refusals[key] = failure
        }
    }

    /// Number of remembered refusals.
    var refusalCount: Int { lock.withLock { refusals.count } }

    /// Number of cached chains.
    var count: Int { lock.withLock { entries.count } }
}
