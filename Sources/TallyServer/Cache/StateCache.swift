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
    }

    private enum Slot {
        case cached(Entry)
        case invalidated(at: UInt64)
    }

    private struct Storage {
        var tick: UInt64 = 0
        var floor: UInt64 = 0
        var slots: [UTF8Key: Slot] = [:]
    }

    private let storage = Mutex(Storage())
    private let capacity: Int

    /// A cache holding at most `capacity` keys (cleared when full).
    init(capacity: Int = 100_000) {
        self.capacity = capacity
    }

    /// Take before reading a record from the store; present it to ``insert(_:for:ticket:)``.
    func ticket() -> UInt64 {
        storage.withLock { $0.tick }
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
        storage.withLock { storage in
            guard ticket >= storage.floor else { return }
            switch storage.slots[UTF8Key(appUserId)] {
            case .invalidated(let at)? where at > ticket: return
            case .cached(let existing)? where existing.version > entry.version: return
            default: break
            }
            if storage.slots.count >= capacity, storage.slots[UTF8Key(appUserId)] == nil {
                storage.slots.removeAll(keepingCapacity: true)
                storage.tick += 1
                storage.floor = storage.tick
                guard ticket >= storage.floor else { return }
            }
            storage.slots[UTF8Key(appUserId)] = .cached(entry)
        }
    }

    /// Drops the entry of `appUserId`; readers that started before cannot put an older state back.
    func invalidate(_ appUserId: String) {
        storage.withLock { storage in
            storage.tick += 1
            storage.slots[UTF8Key(appUserId)] = .invalidated(at: storage.tick)
        }
    }
}
