import Foundation
import TallySQLite
import TallyStorage

extension SQLiteCustomerStore {
    /// Counts one signature of the offer for the customer in one write, unless `limit` were issued.
    public func countOfferSignature(_ offerIdentifier: String, for appUserId: String, limit: Int)
        throws(CustomerStoreError) -> Bool
    {
        try write { (connection) throws(SQLiteError) -> Bool in
            let appUserId = try connection.resolvingAlias(appUserId)
            let issued = try connection.integer(
                "SELECT issued FROM offer_signatures WHERE app_user_id = ? AND offer_identifier = ?",
                [.text(appUserId), .text(offerIdentifier)]) ?? 0
            guard issued < Int64(limit) else { return false }
            try connection.ensureCustomer(appUserId)
            try connection.execute("""
                INSERT INTO offer_signatures (app_user_id, offer_identifier, issued) VALUES (?, ?, 1)
                ON CONFLICT (app_user_id, offer_identifier) DO UPDATE SET issued = issued + 1
                """, [.text(appUserId), .text(offerIdentifier)])
            return true
        }
    }
}
