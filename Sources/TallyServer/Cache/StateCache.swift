import Foundation
import Synchronization
import TallyCore

/// Encoded customer states for `GET /v1/customers/{id}`, keyed by appUserId as UTF-8 bytes (``TallyCore/UTF8Key``).
///
/// An entry carries the record version it was built from and expires at the next moment the state changes
/// by itself. Writes call ``invalidate(_:)`` after committing and before answering; a reader that fetched
/// a record before such an invalidation cannot put its (possibly older) state back: it must present the
/// ``ticket()`` it took before reading, and tickets older than the key's last invalidation are refused.
final class StateCache: Sendable {
    /// One cached state.
    struct Entry: Sendable {
        /// The record version the state was computed from.
        var version: Int64
        /// The first moment the state may differ without a write.
        var expires: Date
        /// The encoded `customer` object.
        var body: [UInt8]
        /// The record's ``CustomerRecord/factsVersion``, when known: a write that leaves it may restate the body.
        var factsVersion: Int64? = nil
    }

    private enum Slot {
        case cached(Entry)
        case invalidated(at: UInt64)
    }

    private struct Storage {
        var floor: UInt64 = 0
        var slots: [UTF8Key: Slot] = [:]
    }

    private let storage = Mutex(Storage())
    /// The last invalidation's number: raised only while `storage` is locked, read without the lock by ``ticket()``
    /// (a ticket read before an invalidation is at most that invalidation's number less one, which is all the
    /// refusal rule needs).
    private let tick = Atomic<UInt64>(0)
    private let capacity: Int

    /// A cache holding at most `capacity` keys (cleared when full).
    init(capacity: Int = 100_000) {
        self.capacity = capacity
    }

    /// Take before reading a record from the store; present it to ``insert(_:for:ticket:)``. Takes no lock.
    func ticket() -> UInt64 {
        tick.load(ordering: .sequentiallyConsistent)
    }

    /// The next invalidation's number (with `storage` locked).
    private func nextTick() -> UInt64 {
        tick.add(1, ordering: .sequentiallyConsistent).newValue
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
    /// lock: `entry` is stored when ``insert(_:for:ticket:)`` would take it and it is still fresh at `now`; else the
    /// key is invalidated, exactly as the write would without it.
    func replaceAfterWrite(_ entry: Entry, for appUserId: String, ticket: UInt64, now: Date) {
        let key = UTF8Key(appUserId)
        storage.withLock { storage in
            if now < entry.expires, insert(entry, key: key, ticket: ticket, into: &storage) { return }
            storage.slots[key] = .invalidated(at: nextTick())
        }
    }

    /// Drops the entry of `appUserId`; readers that started before cannot put an older state back.
    func invalidate(_ appUserId: String) {
        let key = UTF8Key(appUserId)
        storage.withLock { storage in
            storage.slots[key] = .invalidated(at: nextTick())
        }
    }

    /// ``insert(_:for:ticket:)`` with the storage locked; whether `entry` went in.
    private func insert(_ entry: Entry, key: UTF8Key, ticket: UInt64, into storage: inout Storage) -> Bool {
        guard ticket >= storage.floor else { return false }
        switch storage.slots[key] {
        case .invalidated(let at)? where at > ticket: return false
        case .cached(let existing)? where existing.version > entry.version: return false
        default: break
        }
        if storage.slots.count >= capacity, storage.slots[key] == nil {
            storage.slots.removeAll(keepingCapacity: true)
            storage.floor = nextTick()
            guard ticket >= storage.floor else { return false }
        }
        storage.slots[key] = .cached(entry)
        return true
    }
}
