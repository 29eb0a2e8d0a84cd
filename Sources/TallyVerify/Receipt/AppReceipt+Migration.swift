extension AppReceipt {
    /// The transaction id Apple's `ReceiptUtility.extractTransactionIdFromAppReceipt` returns (Python and
    /// Java versions): the transaction identifier (1703) of the first in-app record in encoding order,
    /// nil without records.
    public var firstTransactionId: String? { inAppPurchases.first?.transactionId }

    /// A transaction id to pass to the App Store Server API (Get Transaction History) when migrating a
    /// customer from receipts, read **without verifying** the receipt, as Apple's `ReceiptUtility` does.
    ///
    /// Fails with the reason there is none: no purchases, an Xcode receipt, or unreadable data.
    public static func transactionIdForMigration(base64: String) -> Result<String, TransactionIdUnavailable> {
        switch parse(base64: base64) {
        case .failure(let failure):
            return .failure(.malformed(failure.detail))
        case .success(let receipt):
            if receipt.isXcodeReceipt {
                return .failure(.xcodeReceipt(reportedTransactionId: receipt.firstTransactionId))
            }
            guard let id = receipt.firstTransactionId else { return .failure(.noPurchases) }
            return .success(id)
        }
    }
}
