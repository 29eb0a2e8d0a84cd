import Foundation
import TallyCore
import TallyStorage

extension PostgresCustomerStore {
    /// True: each customer's encoded state is kept in its `customers` row, so a read is one primary-key lookup.
    public var keepsEncodedStates: Bool { true }

    /// The state kept in the customer's row, when it was computed at the row's current `version` with
    /// `fingerprint` and `date` is inside its validity. Reads arriving together share one statement
    /// (``StateReadBatch``); each is one snapshot.
    public func storedState(of appUserId: String, fingerprint: String, at date: Date) throws(CustomerStoreError)
        -> StoredCustomerState?
    {
        if let router, let session = ReadSession.current, session.replicaAllowed {
            // Batched per replica, among readers the replica can all answer (up, past each one's token); the
            // leader reads the primary for the batch when the replica fails it.
            if let replica = router.replicaForBatch(session) {
                return try replica.stateReads.state(of: appUserId, fingerprint: fingerprint, at: date) {
                    (customers) throws(CustomerStoreError) in
                    if let kept = router.run(on: replica, { (connection) throws(PostgresError) in
                        try connection.keptStates(of: customers)
                    }) { return kept }
                    router.countPrimaryRead()
                    return try readOnPrimary("the customer's state cannot be read") { (connection) throws(PostgresError) in
                        try connection.keptStates(of: customers)
                    }
                }
            }
            // Alone: a token the replica is not known to have replayed is asked on the read's connection.
            let kept = try read("the customer's state cannot be read") { (connection) throws(PostgresError) in
                try connection.keptStates(of: [appUserId])
            }
            return StateReadBatch.valid(kept[UTF8Key(appUserId)], fingerprint, date)
        }
        return try stateReads.state(of: appUserId, fingerprint: fingerprint, at: date) { (customers) throws(CustomerStoreError) in
            try read("the customer's state cannot be read") { (connection) throws(PostgresError) in
                try connection.keptStates(of: customers)
            }
        }
    }

    /// Writes `state` into the customer's row when the row is still at `state.version` (one statement, no lock
    /// waited for beyond the row's own: a write holding it commits a new version first, and this changes nothing).
    @discardableResult
    public func keepState(_ state: StoredCustomerState, for appUserId: String) throws(CustomerStoreError) -> Bool {
        let body = String(decoding: state.body, as: UTF8.self)
        return try readOnPrimary("the customer's state cannot be kept") { (connection) throws(PostgresError) -> Bool in
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

extension PostgresConnection {
    /// `… WHERE app_user_id IN ($1, …, $n)` for n = 1…``StateReadBatch/maximumBatch``.
    private static let keptStateSQL: [String] = (1...StateReadBatch.maximumBatch).map { count in
        "SELECT app_user_id, state_body, version, state_fingerprint, state_from_ms, state_until_ms FROM customers "
            + "WHERE state_version = version AND app_user_id IN ("
            + (1...count).map { "$\($0)" }.joined(separator: ", ") + ")"
    }

    /// The states kept at their rows' current versions for `customers` (at most ``StateReadBatch/maximumBatch``),
    /// by id bytes, in one statement; a customer without one is absent.
    func keptStates(of customers: [String]) throws(PostgresError) -> [UTF8Key: StoredCustomerState] {
        guard !customers.isEmpty else { return [:] }
        let rows = try query(Self.keptStateSQL[customers.count - 1], customers.map(PostgresValue.bytes))
        var states: [UTF8Key: StoredCustomerState] = [:]
        for row in 0..<rows.count {
            guard let body = rows.textBytes(row, 1), let version = try rows.integer(row, 2),
                let fingerprint = rows.text(row, 3), let from = try rows.integer(row, 4), let until = try rows.integer(row, 5)
            else { continue }
            states[UTF8Key(try rows.requiredBytes(row, 0))] = StoredCustomerState(
                version: version, fingerprint: fingerprint, validFrom: Date(millisecondsSince1970: from),
                validUntil: Date(millisecondsSince1970: until), body: body)
        }
        return states
    }
}
