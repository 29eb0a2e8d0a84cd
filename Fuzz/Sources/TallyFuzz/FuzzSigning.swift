import Foundation
import TallyCore
import TallySandbox
import TallyVerify

/// Signs transactions the fuzz input describes, with a sandbox authority the fuzzed APIs trust, so
/// inputs can buy coins, subscriptions and products and then spend, refund, restore and transfer.
///
/// A body `!PRODUCT TXID [ORIGINAL] [QUANTITY] [r] [TOKEN]` becomes `{"signedTransaction":"<JWS>"}`: the
/// product's type, group and expiry (30 days after purchase) come from the Market catalog (unknown ids are
/// consumables); `r` revokes it; TOKEN is the `appAccountToken`.
enum FuzzSigning {
    /// When every harness transaction was bought; the authority is valid from a year before.
    static let purchaseDate = Date(timeIntervalSince1970: 1_796_000_000)  // 2026-11-30
    private static let authority = try? SandboxCertificateAuthority.generate(
        now: purchaseDate.addingTimeInterval(-365 * 86_400))
    private static let signer = try? authority?.signer()
    /// The authority's root, trusted by the fuzzed APIs (nil if it could not be made).
    static let root: Certificate? = authority.flatMap { Certificate(der: $0.rootDER) }

    /// The body for a `!` line; nil when the line is not one.
    static func body(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.first == UInt8(ascii: "!"), let signer else { return nil }
        let words = String(decoding: bytes.dropFirst(), as: UTF8.self).split(separator: " ").map(String.init)
        guard words.count >= 2 else { return nil }
        let product = FuzzServer.catalog.products.first { $0.id == words[0] }
        let kind = product?.kind ?? .consumable
        let expires = kind == .autoRenewable ? purchaseDate.addingTimeInterval(30 * 86_400) : nil
        let revoked = words.count > 4 && words[4] == "r" ? purchaseDate.addingTimeInterval(3_600) : nil
        var transaction = StoreTransaction(
            transactionId: words[1], originalTransactionId: words.count > 2 ? words[2] : words[1],
            bundleId: FuzzServer.bundleId, productId: words[0],
            subscriptionGroupIdentifier: product?.subscription?.groupId, purchaseDate: purchaseDate,
            originalPurchaseDate: purchaseDate, expiresDate: expires, type: kind.transactionType,
            appAccountToken: words.count > 5 ? words[5] : nil, signedDate: revoked ?? purchaseDate,
            revocationReason: revoked == nil ? nil : .other, revocationDate: revoked, environment: .sandbox)
        if words.count > 3, let quantity = Int(words[3]) { transaction.quantity = quantity }
        guard let jws = try? signer.signTransaction(transaction) else { return nil }
        return Array(#"{"signedTransaction":"\#(jws)"}"#.utf8)
    }
}
