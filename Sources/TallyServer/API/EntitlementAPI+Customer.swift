import Foundation
import TallyCore
import TallyHTTP
import TallyStorage

extension EntitlementAPI {
    /// How long a state kept in the store (`CustomerStore.keepsEncodedStates`) may be served at most, in seconds.
    static let maximumKeptStateAge: TimeInterval = 86_400

    /// `GET /v1/customers/{appUserId}`: from the cache while it is fresh, else the state the store kept while it
    /// is still right, else computed from the store's record.
    func getCustomer(_ appUserId: String) throws(APIError) -> HTTPResponse {
        // Asked first, so a new mapping (which drops every cached state) is seen within `offerings.refreshSeconds`.
        _ = offerings.current()
        let now = clock.now()
        let customer: [UInt8]
        if cacheMaximumAge > 0, let cached = cache.lookup(appUserId, now: now) {
            customer = cached.body
        } else if store.keepsEncodedStates, let kept = try keptState(appUserId, now: now) {
            customer = kept
        } else {
            customer = try loadCustomer(appUserId, now: now)
        }
        return APIResponse.json(Self.wrap(("customer", customer)))
    }

    /// The state the store kept for `appUserId`, when still right at `now`, put in the cache too.
    private func keptState(_ appUserId: String, now: Date) throws(APIError) -> [UInt8]? {
        let ticket = cache.ticket()
        let fingerprint = offerings.current().fingerprint
        guard let kept = try storeCall({ () throws(CustomerStoreError) in
            try store.storedState(of: appUserId, fingerprint: fingerprint, at: now)
        }) else { return nil }
        if cacheMaximumAge > 0 {
            let expires = min(kept.validUntil, now.addingTimeInterval(cacheMaximumAge))
            cache.insert(StateCache.Entry(version: kept.version, expires: expires, body: kept.body), for: appUserId,
                         ticket: ticket)
        }
        return kept.body
    }

    /// Reads the customer from the store, encodes its state at `now`, caches it, and has a store that keeps
    /// states keep it. A customer the store does not know (version 0: nothing ever written) is not cached: any
    /// client can ask for ids never seen, and each would take the cache's memory.
    func loadCustomer(_ appUserId: String, now: Date) throws(APIError) -> [UInt8] {
        let ticket = cache.ticket()
        let live = offerings.current()
        let record = try storeCall { () throws(CustomerStoreError) in try store.customerState(appUserId, at: now) }
        let (body, state) = Self.encodeCustomer(record, rules: live.rules, now: now)
        if cacheMaximumAge > 0, record.version > 0 {
            let expires = StateExpiry.next(after: now, state: state, record: record, maximumAge: cacheMaximumAge)
            cache.insert(StateCache.Entry(version: record.version, expires: expires, body: body,
                                          factsVersion: record.factsVersion), for: appUserId, ticket: ticket)
        }
        if store.keepsEncodedStates, record.version > 0 {
            // Best effort: a state not kept (a write came first, the database refused) is computed again next time.
            _ = try? store.keepState(Self.kept(body, of: record, state: state, fingerprint: live.fingerprint, at: now),
                                     for: appUserId)
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
    /// invalidation, insert at all (its ticket is older, its version older than the one the invalidation knew). When
    /// the entry did not go in (refused, the cache started over, or it is already expired), the key is invalidated,
    /// exactly as a write without this would — unless a newer version is cached, which stays
    /// (``StateCache/replaceAfterWrite(_:for:ticket:now:)``).
    func cacheWrittenState(_ entry: StateCache.Entry, for appUserId: String, ticket: UInt64, now: Date) {
        guard cacheMaximumAge > 0 else { return cache.invalidate(appUserId) }
        cache.replaceAfterWrite(entry, for: appUserId, ticket: ticket, now: now)
    }

    /// How states are computed, kept and restated (`StateEncoding`), for `rules` whose states carry `fingerprint`.
    static func stateEncoding(rules: CatalogRules, fingerprint: String) -> StateEncoding {
        let currencies = Array(rules.configuration.currencies.keys)
        return StateEncoding(fingerprint: fingerprint, encode: { record, date in
            let (body, state) = encodeCustomer(record, rules: rules, now: date)
            return kept(body, of: record, state: state, fingerprint: fingerprint, at: date)
        }, restate: { body, nets in
            let (balances, debts) = CustomerState.balancesAndDebts(nets: nets, currencies: currencies)
            return CustomerDocument.replacingNets(in: body, balances: balances, debts: debts)
        })
    }

    /// `body`, the encoding of `state` computed from `record` at `date`, as a store keeps it: valid until the state
    /// changes by itself (``StateExpiry``), at most ``maximumKeptStateAge``.
    private static func kept(_ body: [UInt8], of record: CustomerRecord, state: CustomerState, fingerprint: String,
                             at date: Date) -> StoredCustomerState {
        let until = StateExpiry.next(after: date, state: state, record: record, maximumAge: maximumKeptStateAge)
        return StoredCustomerState(version: record.version, fingerprint: fingerprint, validFrom: date, validUntil: until,
                                   body: body)
    }

    /// The `customer` object for a record the caller already holds under `rules` (one ``OfferingsSnapshot``'s), and
    /// the state behind it (balances and debts from the store's materialised nets).
    static func encodeCustomer(_ record: CustomerRecord, rules: CatalogRules, now: Date)
        -> (body: [UInt8], state: CustomerState)
    {
        let state = CustomerState(rules: rules, history: record.purchaseHistory, nets: record.nets, at: now)
        return (CustomerDocument.encode(appUserId: record.appUserId, state: state), state)
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
