import Foundation
import TallyStorage

extension PostgresCustomerStore {
    /// Counts one signature of the offer for the customer under the customer's row lock, unless `limit` were issued.
    public func countOfferSignature(_ offerIdentifier: String, for appUserId: String, limit: Int)
        throws(CustomerStoreError) -> Bool
    {
        try write("the offer signature cannot be counted") { (connection) throws(PostgresError) -> Bool in
            let owner = try connection.lockResolvingAlias(appUserId)
            try connection.lockCustomer(owner)
            let rows = try connection.query(
                "SELECT issued FROM offer_signatures WHERE app_user_id = $1 AND offer_identifier = $2",
                [.bytes(owner), .bytes(offerIdentifier)])
            let issued = rows.count == 0 ? 0 : try rows.integer(0, 0) ?? 0
            guard issued < Int64(limit) else { return false }
            try connection.query("""
                INSERT INTO offer_signatures (app_user_id, offer_identifier, issued) VALUES ($1, $2, 1)
                ON CONFLICT (app_user_id, offer_identifier) DO UPDATE SET issued = offer_signatures.issued + 1
                """, [.bytes(owner), .bytes(offerIdentifier)])
            return true
        }
    }
}
