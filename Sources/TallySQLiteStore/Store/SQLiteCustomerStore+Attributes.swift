import Foundation
import TallyCore
import TallyStorage
import TallySQLite

extension SQLiteCustomerStore {
    /// The customer's attributes, from a reader.
    public func attributes(of appUserId: String) throws(CustomerStoreError) -> [String: String] {
        do {
            return try readers.withConnection { (connection) throws(SQLiteError) -> [String: String] in
                try connection.attributes(of: appUserId)
            }
        } catch {
            throw error.storeError()
        }
    }

    /// Merges the changes in one write, judged against the attributes the write found.
    public func setAttributes(_ changes: [String: String?], for appUserId: String) throws(CustomerStoreError)
        -> [String: String]
    {
        let result = try write { (connection) throws(SQLiteError) -> Result<[String: String], CustomerAttributesProblem> in
            let appUserId = try connection.resolvingAlias(appUserId)  // aliased since the caller looked
            let current = try connection.attributes(of: appUserId)
            let merged = CustomerAttributes.merged(current, with: changes)
            guard case .success(let after) = merged else { return merged }
            try connection.ensureCustomer(appUserId)
            for (key, value) in changes {
                if let value = value {
                    try connection.execute("""
                        INSERT INTO attributes (app_user_id, key, value) VALUES (?, ?, ?)
                        ON CONFLICT (app_user_id, key) DO UPDATE SET value = excluded.value
                        """, [.text(appUserId), .text(key), .text(value)])
                } else {
                    try connection.execute("DELETE FROM attributes WHERE app_user_id = ? AND key = ?",
                                           [.text(appUserId), .text(key)])
                }
            }
            return .success(after)
        }
        switch result {
        case .success(let after): return after
        case .failure(let problem): throw CustomerStoreError(.refused, problem.message, underlying: problem)
        }
    }
}
