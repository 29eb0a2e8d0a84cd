import Foundation
import TallyCore

/// The one place that says whether an `appAccountToken` is a given customer's own.
///
/// Today a token is the customer's who first stored it (`account_tokens`, written by ``TransactionRecorder``): a
/// token no customer holds yet is nobody's. When tokens are minted by the server for each customer, only this
/// function changes.
public enum AccountTokenRule {
    /// Whether `token` is `appUserId`'s, by the rows of the write in progress (ids compared as bytes).
    public static func isToken<Rows: TransactionRows>(_ token: String, of appUserId: String,
                                                      in rows: Rows) throws(Rows.Failure) -> Bool {
        guard let holder = try rows.owner(ofToken: token) else { return false }
        return holder.hasSameBytes(as: appUserId)
    }
}
