import Foundation
import TallyStorage

extension PostgresCustomerStore {
    /// Stores `candidate` as the customer's token unless one is stored, under the customer's row lock, and
    /// answers the stored one.
    public func mintAccountToken(for appUserId: String, candidate: String) throws(CustomerStoreError) -> String {
        try write("the account token cannot be stored") { (connection) throws(PostgresError) -> String in
            try connection.lockCustomer(appUserId)
            try connection.query("""
                INSERT INTO account_tokens (app_account_token, app_user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING
                """, [.bytes(candidate), .bytes(appUserId)])
            let rows = try connection.query("SELECT app_account_token FROM account_tokens WHERE app_user_id = $1",
                                            [.bytes(appUserId)])
            guard rows.count == 1, let token = try rows.bytes(0, 0) else {
                throw .corrupt("the account token of customer '\(appUserId.prefix(64))' was not stored")
            }
            return token
        }
    }

    /// The token minted for `appUserId`.
    public func accountToken(of appUserId: String) throws(CustomerStoreError) -> String? {
        try read("the account token cannot be read") { (connection) throws(PostgresError) -> String? in
            let rows = try connection.query("SELECT app_account_token FROM account_tokens WHERE app_user_id = $1",
                                            [.bytes(appUserId)])
            return rows.count == 0 ? nil : try rows.bytes(0, 0)
        }
    }

    /// The minter of `token`, or the customer an anonymous minter is aliased to.
    public func owner(ofToken token: String) throws(CustomerStoreError) -> String? {
        guard let token = AccountToken.canonical(token) else { return nil }
        return try read("the account token cannot be read") { (connection) throws(PostgresError) -> String? in
            let rows = try connection.query("SELECT app_user_id FROM account_tokens WHERE app_account_token = $1",
                                            [.bytes(token)])
            guard rows.count > 0, let minter = try rows.bytes(0, 0) else { return nil }
            return try connection.aliasTarget(minter) ?? minter
        }
    }
}
