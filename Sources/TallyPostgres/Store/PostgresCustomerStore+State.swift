import Foundation
import TallyCore
import TallyServer

extension PostgresCustomerStore {
    /// True: each customer's encoded state is kept in its `customers` row, so a read is one primary-key lookup.
    public var keepsEncodedStates: Bool { true }

    /// The state kept in the customer's row, when it was computed at the row's current `version` with
    /// `fingerprint` and `date` is inside its validity; one statement (one snapshot).
    public func storedState(of appUserId: String, fingerprint: String, at date: Date) throws(CustomerStoreError)
        -> StoredCustomerState?
    {
        try read("the customer's state cannot be read") { (connection) throws(PostgresError) -> StoredCustomerState? in
            let rows = try connection.query("""
                SELECT state_body, version, state_from_ms, state_until_ms FROM customers WHERE app_user_id = $1 AND state_version = version
                    AND state_fingerprint = $2 AND state_from_ms <= $3::bigint AND $3::bigint < state_until_ms
                """, [.bytes(appUserId), .text(fingerprint), .integer(date.millisecondsSince1970)])
            guard rows.count == 1, let body = rows.textBytes(0, 0), let version = try rows.integer(0, 1),
                let from = try rows.integer(0, 2), let until = try rows.integer(0, 3)
            else { return nil }
            return StoredCustomerState(version: version, fingerprint: fingerprint,
                                       validFrom: Date(millisecondsSince1970: from),
                                       validUntil: Date(millisecondsSince1970: until), body: body)
        }
    }

    /// Writes `state` into the customer's row when the row is still at `state.version` (one statement, no lock
    /// waited for beyond the row's own: a write holding it commits a new version first, and this changes nothing).
    @discardableResult
    public func keepState(_ state: StoredCustomerState, for appUserId: String) throws(CustomerStoreError) -> Bool {
        let body = String(decoding: state.body, as: UTF8.self)
        return try read("the customer's state cannot be kept") { (connection) throws(PostgresError) -> Bool in
            let rows = try connection.query("""
                UPDATE customers SET state_version = version, state_fingerprint = $3, state_from_ms = $4::bigint,
                    state_until_ms = $5::bigint, state_body = $6
                WHERE app_user_id = $1 AND version = $2::bigint
                """, [.bytes(appUserId), .integer(state.version), .text(state.fingerprint),
                      .integer(state.validFrom.millisecondsSince1970), .integer(state.validUntil.millisecondsSince1970),
                      .text(body)])
            return rows.affected == 1
        }
    }
}
