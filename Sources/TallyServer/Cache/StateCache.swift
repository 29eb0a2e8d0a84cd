import Foundation
import TallyLocking
import TallyCore

/// Encoded customer states for `GET /v1/customers/{id}`, keyed by appUserId as UTF-8 bytes (``TallyCore/UTF8Key``).
///
/// An entry carries the record version it was built from and expires at the next moment the state changes
/// by itself. Writes call ``invalidate(_:)`` (or ``replaceAfterWrite(_:for:ticket:now:)``) after committing and
/// before answering; a reader that fetched a record before such an invalidation cannot put its (possibly older)
/// state back: it must present the ``ticket()`` it took before reading, and tickets older than the key's last
/// invalidation are refused, unless its version is at least the newest the invalidation knew. A cached version is
/// never replaced by an older one.
final class StateCache: Sendable {
    /// One cached state.
    struct Entry: Sendable {
        /// The record version the state was computed from.
        var version: Int64
        /// The first moment the state may differ without a write.
        var expires: Date
        /// The encoded `customer` object.
        var body: [UInt8]
        /// The record's `CustomerRecord.factsVersion`, when known: a write that leaves it may restate the body.
        var factsVersion: Int64? = nil
    }

    private enum Slot {
        case cached(Entry)
        /// Dropped by the invalidation numbered `at`; `newest` is the newest record version known committed then
        /// (nil: unknown), so a state at least that new is not stale whatever its ticket.
        case invalidated(at: UInt64, newest: Int64?)

        var bodyBytes: Int {
            if case .cached(let entry) = self { entry.body.count } else { 0 }
        }
    }

    private struct Storage {
        var floor: UInt64 = 0
        var slots: [UTF8Key: Slot] = [:]
        /// The bytes the slots hold: each key's UTF-8 bytes, and each cached body's.
        var bytes = 0

        /// Puts `slot` under `key` (nil removes it), keeping ``bytes``.
        mutating func set(_ slot: Slot?, for key: UTF8Key) {
            let keyBytes = key.string.utf8.count
            if let old = slots[key] { bytes -= keyBytes + old.bodyBytes }
            slots[key] = slot
            if let slot { bytes += keyBytes + slot.bodyBytes }
        }

        mutating func removeAll() {
            slots.removeAll(keepingCapacity: true)
            bytes = 0
        }
    }

    private let storage = Locked(Storage())
    /// The last invalidation's number: raised only while `storage` is locked, read without `storage`'s lock by
    /// ``ticket()`` (a ticket read before an invalidation is at most that invalidation's number less one, which is
    /// all the refusal rule needs).
    private let tick = Locked<UInt64>(0)
    private let capacity: Int
    private let maximumBytes: Int

    /// A cache holding at most `capacity` keys and `maximumBytes` of keys and bodies (cleared when either is
    /// reached): ids chosen by clients cannot grow it past that.
    init(capacity: Int = 100_000, maximumBytes: Int = 64 << 20) {
        self.capacity = capacity
        self.maximumBytes = maximumBytes
    }

    /// How many keys the cache holds and their bytes with the cached bodies' (for `/metrics`).
    var usage: (entries: Int, bytes: Int) {
        storage.withLock { ($0.slots.count, $0.bytes) }
    }

    /// Take before reading a record from the store; present it to ``insert(_:for:ticket:)``. Takes only the
    /// counter's own lock, never `storage`'s.
    func ticket() -> UInt64 {
        tick.withLock { $0 }
    }

    /// The next invalidation's number (with `storage` locked).
    private func nextTick() -> UInt64 {
        tick.withLock { tick in
            tick += 1
            return tick
        }
    }

    /// The entry for `appUserId` if present and not expired at `now`.
    func lookup(_ appUserId: String, now: Date) -> Entry? {
        storage.withLock { storage -> Entry? in
            guard case .cached(let entry)? = storage.slots[UTF8Key(appUserId)], now < entry.expires else { return nil }
            return entry
        }
    }

    /// Stores `entry` unless the key was invalidated after `ticket` was taken or holds a newer version.
    func insert(_ entry: Entry, for appUserId: String, ticket: UInt64) {
        let key = UTF8Key(appUserId)
        storage.withLock { storage in _ = insert(entry, key: key, ticket: ticket, into: &storage) }
    }

    /// Puts the state a write read inside its own transaction in place of the invalidation the write owes, in one
    /// lock. After it, the key holds `entry`, a newer version, or nothing — never a state older than the write:
    /// - a newer version stays: a write that committed after this one put it there, and it refuses every older
    ///   state a reader may still bring;
    /// - else `entry` goes in when ``insert(_:for:ticket:)`` takes it (by its ticket, or by its version against the
    ///   newest version the key's invalidation knew) and it is still fresh at `now`;
    /// - else the key is invalidated anew, knowing this write's version as the newest when the key knew its own:
    ///   a reader holding a ticket from before this write's COMMIT is then refused.
    /// So writes to one key that race keep the newest state instead of invalidating each other.
    func replaceAfterWrite(_ entry: Entry, for appUserId: String, ticket: UInt64, now: Date) {
        let key = UTF8Key(appUserId)
        storage.withLock { storage in
            let newest: Int64?
            switch storage.slots[key] {
            case .cached(let existing)?:
                if existing.version > entry.version { return }
                newest = entry.version
            case .invalidated(_, let known)?: newest = known.map { max($0, entry.version) }
            case nil: newest = entry.version
            }
            if now < entry.expires, insert(entry, key: key, ticket: ticket, into: &storage) { return }
            storage.set(.invalidated(at: nextTick(), newest: newest), for: key)
        }
    }

    /// Drops every entry (the rules every state was computed with changed); readers that took their ticket before
    /// cannot put a state back. A reader that takes its ticket before it reads the rules therefore never caches a
    /// state of the old rules after this.
    func invalidateAll() {
        storage.withLock { storage in
            storage.removeAll()
            storage.floor = nextTick()
        }
    }

    /// Drops the entry of `appUserId`; readers that started before cannot put an older state back.
    func invalidate(_ appUserId: String) {
        let key = UTF8Key(appUserId)
        storage.withLock { storage in
            storage.set(.invalidated(at: nextTick(), newest: nil), for: key)
        }
    }

    /// ``insert(_:for:ticket:)`` with the storage locked; whether `entry` went in. An invalidated key takes a state
    /// whose reader took its ticket after the invalidation, or one at least as new as the newest version the
    /// invalidation knew; a key the cache dropped when it started over, only a ticket taken after that.
    private func insert(_ entry: Entry, key: UTF8Key, ticket: UInt64, into storage: inout Storage) -> Bool {
        switch storage.slots[key] {
        case .cached(let existing)?:
            guard existing.version <= entry.version else { return false }
        case .invalidated(let at, let newest)?:
            guard ticket >= at || newest.map({ entry.version >= $0 }) == true else { return false }
        case nil:
            guard ticket >= storage.floor else { return false }
        }
        let size = key.string.utf8.count + entry.body.count
        let replaced = storage.slots[key].map { key.string.utf8.count + $0.bodyBytes }
        if replaced == nil && storage.slots.count >= capacity || storage.bytes - (replaced ?? 0) + size > maximumBytes {
            // Full: start over (every reader from before is refused, as after an invalidation).
            storage.removeAll()
            storage.floor = nextTick()
            guard ticket >= storage.floor, size <= maximumBytes else { return false }
        }
        storage.set(.cached(entry), for: key)
        return true
    }
}
