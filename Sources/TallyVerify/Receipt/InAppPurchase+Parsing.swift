import Foundation

extension InAppPurchase {
    /// The record attribute types read into named properties.
    static let knownTypes: Set<Int> = [1701, 1702, 1703, 1704, 1705, 1706, 1707, 1708, 1711, 1712, 1713, 1719, 1721]

    /// Reads one in-app record: the value of a type-17 attribute, itself a `SET OF ReceiptAttribute`.
    init(record: [UInt8], context: String) throws(VerificationFailure) {
        let list = try ReceiptAttributeList(decoding: record, knownTypes: Self.knownTypes, context: context)
        let quantity = try list.required(list.integer(1701, "quantity"), 1701, "quantity")
        guard let count = Int(exactly: quantity), count >= 0 else {
            throw VerificationFailure(.verificationFailure, "\(context): quantity \(quantity) is not a valid count")
        }
        let productType = try list.integer(1707, "product type")
        self.init(
            quantity: count,
            productId: try list.required(list.string(1702, "product identifier"), 1702, "product identifier"),
            transactionId: try list.required(list.string(1703, "transaction identifier"), 1703, "transaction identifier"),
            purchaseDate: try list.required(list.date(1704, "purchase date"), 1704, "purchase date"),
            originalTransactionId: try list.string(1705, "original transaction identifier"),
            originalPurchaseDate: try list.date(1706, "original purchase date"),
            productType: productType.flatMap { Int(exactly: $0) },
            expiresDate: try list.date(1708, "subscription expiration date"),
            webOrderLineItemId: try list.integer(1711, "web order line item id"),
            cancellationDate: try list.date(1712, "cancellation date"),
            isTrialPeriod: try list.flag(1713, "trial period flag"),
            isInIntroOfferPeriod: try list.flag(1719, "introductory price period flag"),
            offerIdentifier: try list.string(1721, "offer identifier"),
            unknownAttributes: list.unknown
        )
    }
}
