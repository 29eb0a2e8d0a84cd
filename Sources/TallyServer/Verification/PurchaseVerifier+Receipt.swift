import TallyCore
import TallyVerify

extension PurchaseVerifier {
    /// Verifies a base64 app receipt and returns its in-app records as transactions, each with the
    /// product type the catalog gives its product (the receipt's own type field is often missing).
    func verifyReceipt(_ base64: String) -> Result<[StoreTransaction], VerificationFailure> {
        let effectiveDate: ReceiptVerifier.EffectiveDate = settings.onlineChecks ? .now : .receiptCreationDate
        let receipt: AppReceipt
        switch receipts.verify(base64: base64, at: effectiveDate) {
        case .failure(let failure): return .failure(failure)
        case .success(let value): receipt = value
        }
        guard let environment = receipt.environment, settings.environments.contains(environment) else {
            let accepted = settings.environments.map(\.rawValue).joined(separator: ", ")
            return .failure(VerificationFailure(.invalidEnvironment, "the receipt is of type "
                + "\(receipt.receiptType ?? "(none)"); this server accepts \(accepted)"))
        }
        if environment == .production, let expected = settings.appAppleId, let found = receipt.appAppleId,
           found != expected {
            return .failure(VerificationFailure(.invalidAppIdentifier,
                "the receipt is for app Apple id \(found); this server expects \(expected)"))
        }
        return .success(receipt.transactions().map { transaction in
            var typed = transaction
            if let product = catalog.product(transaction.productId) { typed.type = product.kind.transactionType }
            return typed
        })
    }
}
