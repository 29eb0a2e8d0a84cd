import Foundation
import TallyCore

/// Transactions shaped as the ones a device's StoreKit 2 hands an app (and the app posts): every field Apple signs
/// for a consumable purchase, `appTransactionId`, `appAccountToken`, `originalPurchaseDate` and
/// `inAppOwnershipType` included, plus the on-device `deviceVerification` (base64 of a SHA-384 digest, 64
/// characters) and `deviceVerificationNonce` (a UUID) — see ../shared/docs/receipts-and-payloads.md (B2, "On-device
/// extras"). The benches sign these, so a post costs what a real device's post costs (the device fields alone add
/// ~600 bytes of JWS).
enum DeviceTransaction {
    /// A consumable purchase of `productId` as a device signs it; `device` false leaves out the two on-device
    /// fields (the shape of a `signedTransactionInfo` in a server notification).
    static func consumable(id: String, bundleId: String, productId: String, now: Date, device: Bool = true)
        -> StoreTransaction
    {
        var transaction = StoreTransaction(
            transactionId: id, originalTransactionId: id, bundleId: bundleId, productId: productId, purchaseDate: now,
            originalPurchaseDate: now, quantity: 1, type: .consumable,
            appAccountToken: uuid(id, salt: 1), inAppOwnershipType: .purchased, signedDate: now,
            environment: .sandbox, storefront: "USA", storefrontId: "143441", transactionReason: .purchase,
            currency: "USD", price: 990, appTransactionId: "70499" + String(id.suffix(13)))
        if device {
            transaction.unknownFields["deviceVerification"] = .string(deviceVerification(id))
            transaction.unknownFields["deviceVerificationNonce"] = .string(uuid(id, salt: 2))
        }
        return transaction
    }

    /// A deterministic lower-case UUID for `id` (distinct per `salt`).
    static func uuid(_ id: String, salt: UInt8) -> String {
        var bytes = Array(id.utf8.suffix(14)) + [salt]
        while bytes.count < 16 { bytes.append(salt &* 31 &+ UInt8(bytes.count)) }
        let hex = bytes.prefix(16).map { String(format: "%02x", $0) }.joined()
        let parts = [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4),
                     hex.dropFirst(16).prefix(4), hex.dropFirst(20)]
        return parts.joined(separator: "-")
    }

    /// 48 bytes (a SHA-384's length) in standard base64, as `deviceVerification` is.
    static func deviceVerification(_ id: String) -> String {
        var state = UInt64(truncatingIfNeeded: id.hashValue) | 1
        let bytes = (0..<48).map { _ -> UInt8 in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        return Data(bytes).base64EncodedString()
    }
}
