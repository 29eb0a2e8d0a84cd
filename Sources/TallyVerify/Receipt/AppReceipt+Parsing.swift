import Foundation

extension AppReceipt {
    /// Decodes a base64 receipt (whitespace tolerated) and reads its payload **without verifying the
    /// signature**, as Apple's `ReceiptUtility` does. Use the result only to look things up (e.g. a
    /// transaction id for the App Store Server API); use ``ReceiptVerifier`` to trust it.
    public static func parse(base64: String) -> Result<AppReceipt, VerificationFailure> {
        Result { () throws(VerificationFailure) in
            try parse(container: ReceiptPKCS7(der: ReceiptBase64.decode(base64)))
        }
    }

    /// Reads the payload of a DER/BER PKCS#7 receipt **without verifying the signature**.
    public static func parse(der: Data) -> Result<AppReceipt, VerificationFailure> {
        Result { () throws(VerificationFailure) in
            try parse(container: ReceiptPKCS7(der: [UInt8](der)))
        }
    }

    /// Reads the signed content of an already decoded container.
    static func parse(container: ReceiptPKCS7) throws(VerificationFailure) -> AppReceipt {
        try AppReceipt(payload: container.signedContent())
    }

    /// Reads a receipt payload: `SET OF ReceiptAttribute`.
    init(payload: [UInt8]) throws(VerificationFailure) {
        let list = try ReceiptAttributeList(decoding: payload, knownTypes: Self.knownTypes, context: "receipt payload")
        let purchases = try Self.inAppPurchases(in: list.unknown)
        self.init(
            receiptType: try list.string(0, "receipt type"),
            appAppleId: try list.integer(1, "app Apple id"),
            bundleId: try list.required(list.string(2, "bundle identifier"), 2, "bundle identifier"),
            applicationVersion: try list.string(3, "app version"),
            opaqueValue: list.bytes(4),
            sha1Hash: list.bytes(5),
            creationDate: try list.required(list.date(12, "receipt creation date"), 12, "receipt creation date"),
            expirationDate: try list.date(21, "receipt expiration date"),
            originalPurchaseDate: try list.date(18, "original purchase date"),
            originalApplicationVersion: try list.string(19, "original application version"),
            ageRating: try list.string(10, "age rating"),
            inAppPurchases: purchases,
            unknownAttributes: list.unknown.filter { $0.type != Self.inAppType }
        )
    }

    /// The attribute types read into named properties (type 17 repeats and is read separately).
    static let knownTypes: Set<Int> = [0, 1, 2, 3, 4, 5, 10, 12, 18, 19, 21]
    /// The in-app purchase attribute type.
    static let inAppType = 17

    /// Every type-17 attribute, decoded in encoding order.
    private static func inAppPurchases(in attributes: [ReceiptAttribute]) throws(VerificationFailure) -> [InAppPurchase] {
        var purchases: [InAppPurchase] = []
        for attribute in attributes where attribute.type == inAppType {
            let context = "in-app purchase record \(purchases.count + 1)"
            purchases.append(try InAppPurchase(record: [UInt8](attribute.value), context: context))
        }
        return purchases
    }
}
