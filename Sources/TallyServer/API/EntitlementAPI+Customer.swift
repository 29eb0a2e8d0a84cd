import Foundation
import TallyCore
import TallyHTTP

extension EntitlementAPI {
    /// `GET /v1/customers/{appUserId}`: from the cache while it is fresh, else from the store.
    func getCustomer(_ appUserId: String) throws(APIError) -> HTTPResponse {
        let now = clock.now()
        let customer: [UInt8]
        if let cached = cache.lookup(appUserId, now: now) {
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
        let expires = StateExpiry.next(after: now, state: state, record: record, maximumAge: Self.maximumCacheAge)
        cache.insert(StateCache.Entry(version: record.version, expires: expires, body: body), for: appUserId,
                     ticket: ticket)
        return body
    }

    /// The `customer` object for a record the caller already holds, and the state behind it (balances and
    /// debts from the store's materialised nets).
    func encodeCustomer(_ record: CustomerRecord, now: Date) -> (body: [UInt8], state: CustomerState) {
        let state = CustomerState(catalog: configuration.catalog, configuration: configuration.appConfiguration,
                                  history: record.purchaseHistory, nets: record.nets, at: now)
        return (CustomerJSON.encode(appUserId: record.appUserId, state: state), state)
    }

    /// Runs a store call; a store failure is 503 `unavailable`.
    func storeCall<T>(_ body: () throws(CustomerStoreError) -> T) throws(APIError) -> T {
        do {
            return try body()
        } catch {
            throw .unavailable(error)
        }
    }

    /// `{"name":value,…}` from already-encoded values.
    static func wrap(_ members: (String, [UInt8])...) -> [UInt8] {
        JSONWriter.object { writer in
            for (name, value) in members { writer.field(name, raw: value) }
        }
    }
}
