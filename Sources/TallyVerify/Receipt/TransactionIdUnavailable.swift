/// Why a receipt yields no transaction id for the App Store Server API migration.
public enum TransactionIdUnavailable: Error, Sendable, Hashable, CustomStringConvertible {
    /// The receipt has no in-app purchase records: the customer bought nothing in the app.
    case noPurchases
    /// The receipt was made by StoreKit Testing in Xcode; its transaction ids (`0`) are unknown to the
    /// App Store Server API. `reportedTransactionId` is what Apple's `ReceiptUtility` would return.
    case xcodeReceipt(reportedTransactionId: String?)
    /// The receipt could not be read; the detail says where.
    case malformed(String)

    /// A sentence saying why there is no id.
    public var description: String {
        switch self {
        case .noPurchases:
            "the receipt holds no in-app purchases; there is no transaction to migrate"
        case .xcodeReceipt(let id):
            "the receipt comes from StoreKit Testing in Xcode (transaction id \(id ?? "none")); "
                + "the App Store Server API does not know its transactions"
        case .malformed(let detail):
            "the receipt could not be read: \(detail)"
        }
    }
}
