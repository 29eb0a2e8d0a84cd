import Foundation
import TallyCore

/// The one place that says whether an `appAccountToken` is a given customer's own.
///
/// A token is the customer's the server minted it for (`account_tokens`, written only by minting:
/// `POST …/account-token`); any other token is nobody's.
public enum AccountTokenRule {
    /// Whether `token` is `appUserId`'s, by the rows of the write in progress (ids compared as bytes).
    public static func isToken<Rows: TransactionRows>(_ token: String, of appUserId: String,
                                                      in rows: Rows) throws(Rows.Failure) -> Bool {
        guard let holder = try rows.owner(ofToken: token) else { return false }
        return holder.hasSameBytes(as: appUserId)
    }
}
