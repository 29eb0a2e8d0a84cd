import CSQLite
import Foundation
import TallySQLite
import TallyStorage

extension SQLiteCustomerStore {
    /// Stores `candidate` as the customer's token unless one is stored (one durable write), and answers the stored one.
    public func mintAccountToken(for appUserId: String, candidate: String) throws(CustomerStoreError) -> String {
        try write { (connection) throws(SQLiteError) -> String in
            try connection.ensureCustomer(appUserId)
            try connection.execute("""
                INSERT INTO account_tokens (app_account_token, app_user_id) VALUES (?, ?) ON CONFLICT DO NOTHING
                """, [.text(candidate), .text(appUserId)])
            guard let token = try connection.text("SELECT app_account_token FROM account_tokens WHERE app_user_id = ?",
                                                  [.text(appUserId)]) else {
                throw SQLiteError(code: SQLITE_CORRUPT, "the account token of the customer was not stored")
            }
            return token
        }
    }

    /// The token minted for `appUserId`, from a reader.
    public func accountToken(of appUserId: String) throws(CustomerStoreError) -> String? {
        do {
            return try readers.withConnection { (connection) throws(SQLiteError) -> String? in
                try connection.text("SELECT app_account_token FROM account_tokens WHERE app_user_id = ?",
                                    [.text(appUserId)])
            }
        } catch {
            throw error.storeError()
        }
    }

    /// The minter of `token` (or the customer an anonymous minter is aliased to), from a reader.
    public func owner(ofToken token: String) throws(CustomerStoreError) -> String? {
        guard let token = AccountToken.canonical(token) else { return nil }
        do {
            return try readers.withConnection { (connection) throws(SQLiteError) -> String? in
                try connection.text("SELECT app_user_id FROM account_tokens WHERE app_account_token = ?", [.text(token)])
                    .map { (owner) throws(SQLiteError) in try connection.resolvingAlias(owner) }
            }
        } catch {
            throw error.storeError()
        }
    }
}
