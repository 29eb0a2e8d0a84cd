import Foundation
import TallyCore
import TallyHTTP

extension EntitlementAPI {
    /// `GET /v1/customers/{appUserId}`: from the cache while it is fresh, else from the store.
    func getCustomer(_ appUserId: String) throws(APIError) -> HTTPResponse {
        let now = clock.now()
        let customer: [UInt8]
        if cacheMaximumAge > 0, let cached = cache.lookup(appUserId, now: now) {
            customer = cached.body
        } else {
            customer = try loadCustomer(appUserId, now: now)
        }
        return APIResponse.json(Self.wrap(("customer", customer)))
    }

    /// Reads the customer from the store, encodes its state at `now` and caches it.
    func loadCustomer(_ appUserId: String, now: Date) throws(APIError) -> [UInt8] {
        let ticket = cache.ticket()
        let record = try storeCall { () throws(CustomerStoreError) in try store.customerState(appUserId) }
        let (body, state) = encodeCustomer(record, now: now)
        let expires = StateExpiry.next(after: now, state: state, record: record, maximumAge: cacheMaximumAge)
        if cacheMaximumAge > 0 {
            cache.insert(StateCache.Entry(version: record.version, expires: expires, body: body), for: appUserId,
                         ticket: ticket)
        }
        return body
    }

    /// Puts the state a write read inside its own transaction (at `entry.version`) in the cache, in place
    /// of the invalidation a write makes, or invalidates when that cannot be proven safe. `ticket` was taken
    /// before the write began.
    ///
    /// Why no newer state is ever covered up: a write that commits after this one invalidates after its COMMIT,
    /// so after `ticket`. If it did so before this insert, the cache refuses the insert (an invalidation newer
    /// than the ticket); if after, it drops this entry. A reader that read before this COMMIT holds an older
    /// version and cannot replace this entry (the cache keeps the newer version), nor, after the fallback
    /// invalidation, insert at all (its ticket is older). When the entry did not go in (refused, the cache
    /// started over, or it is already expired), the key is invalidated, exactly as a write without this would.
    func cacheWrittenState(_ entry: StateCache.Entry, for appUserId: String, ticket: UInt64, now: Date) {
        guard cacheMaximumAge > 0 else { return cache.invalidate(appUserId) }
        cache.insert(entry, for: appUserId, ticket: ticket)
        if let cached = cache.lookup(appUserId, now: now), cached.version == entry.version { return }
        cache.invalidate(appUserId)
    }

    /// The `customer` object for a record the caller already holds, and the state behind it (balances and
    /// debts from the store's materialised nets).
    func encodeCustomer(_ record: CustomerRecord, now: Date) -> (body: [UInt8], state: CustomerState) {
        let state = CustomerState(rules: rules, history: record.purchaseHistory, nets: record.nets, at: now)
        return (CustomerJSON.encode(appUserId: record.appUserId, state: state), state)
    }

    /// Runs a store call; a store failure is 503 `unavailable`.
    func storeCall<T>(_ body: () throws(CustomerStoreError) -> T) throws(APIError) -> T {
        do {
            return try body()
        } catch {
            throw .storeFailure(error)
        }
    }

    /// `{"name":value,…}` from already-encoded values.
    static func wrap(_ members: (String, [UInt8])...) -> [UInt8] {
        JSONWriter.object { writer in
            for (name, value) in members { writer.field(name, raw: value) }
        }
    }
}
