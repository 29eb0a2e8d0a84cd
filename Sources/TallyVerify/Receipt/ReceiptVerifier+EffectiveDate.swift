import Foundation

extension ReceiptVerifier {
    /// The instant at which certificate validity is evaluated.
    public enum EffectiveDate: Sendable, Hashable {
        /// The receipt's own creation date (type 12), read before verification, as Apple prescribes.
        case receiptCreationDate
        /// The current time: receipts signed by since-expired certificates then fail.
        case now
        /// A fixed instant.
        case date(Date)

        /// The concrete instant for `receipt`.
        func instant(for receipt: AppReceipt) -> Date {
            switch self {
            case .receiptCreationDate: receipt.creationDate
            case .now: Date()
            case .date(let date): date
            }
        }
    }
}
