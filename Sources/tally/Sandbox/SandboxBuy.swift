import Foundation
import TallyCore
import TallySandbox

/// `tally sandbox buy PRODUCT_ID [--account A] [--device D] [--quantity N] [--app-account-token UUID]
/// [--offer ID (--key-id K --nonce UUID --signature BASE64 --timestamp MS | --offer-jws JWS) | --win-back ID |
/// --intro-eligibility JWS] [--json]`
enum SandboxBuy {
    static func run(_ words: [String]) throws -> Int32 {
        let arguments = try Arguments.sandbox(words, allowed: Set(["quantity", "app-account-token"]).union(offerOptions))
        let context = SandboxContext(arguments)
        let productId = try arguments.positional(0, "PRODUCT_ID")
        let quantity = try arguments.value("quantity").map(Self.parseQuantity) ?? 1
        let offer = try Self.offer(arguments)
        let keys = offer == nil ? nil : SandboxOfferKeys(directory: context.url)
        let result = try context.mutate(accounts: [context.account]) { sandbox in
            sandbox.purchase(productId, account: context.account, device: context.device, quantity: quantity,
                             appAccountToken: arguments.value("app-account-token")?.lowercased(), offer: offer,
                             offerKeys: keys)
        }
        let report = PurchaseReport(result)
        if context.json {
            try context.printJSON(report)
        } else {
            print(report.sentence)
        }
        return report.exitCode
    }

    /// The options naming an offer.
    static let offerOptions: Set<String> = ["offer", "key-id", "nonce", "signature", "timestamp", "offer-jws",
                                            "win-back", "intro-eligibility"]

    /// The offer the options name, nil for none: `--offer ID` with a V1 signature (`--key-id`, `--nonce`,
    /// `--signature` base64 DER, `--timestamp` ms) or a JWS (`--offer-jws`), `--win-back ID`, `--intro-eligibility JWS`.
    static func offer(_ arguments: Arguments) throws -> SandboxOffer? {
        let kinds = ["offer", "win-back", "intro-eligibility"].filter { arguments.value($0) != nil }
        guard kinds.count <= 1 else { throw UsageError("give one of --offer, --win-back and --intro-eligibility, not \(kinds.count)") }
        if let id = arguments.value("win-back") { return .winBack(offerId: id) }
        if let jws = arguments.value("intro-eligibility") { return .introductoryEligibility(jws: jws) }
        guard let id = arguments.value("offer") else {
            let stray = offerOptions.subtracting(["offer", "win-back", "intro-eligibility"]).filter { arguments.value($0) != nil }
            guard stray.isEmpty else { throw UsageError("--\(stray.sorted()[0]) needs --offer ID") }
            return nil
        }
        if let jws = arguments.value("offer-jws") { return .promotionalJWS(offerId: id, jws: jws) }
        guard let keyId = arguments.value("key-id"), let nonce = arguments.value("nonce"),
              let signatureText = arguments.value("signature"), let timestampText = arguments.value("timestamp") else {
            throw UsageError("--offer ID needs --offer-jws JWS, or --key-id, --nonce, --signature and --timestamp (a V1 signature)")
        }
        guard let signature = Data(base64Encoded: signatureText) else { throw UsageError("--signature must be base64 (of the DER ECDSA signature)") }
        guard let timestamp = Int64(timestampText) else { throw UsageError("--timestamp must be milliseconds since 1970, not '\(timestampText)'") }
        return .promotional(offerId: id, keyId: keyId, nonce: nonce, signature: signature, timestamp: timestamp)
    }

    static func parseQuantity(_ text: String) throws -> Int {
        guard let value = Int(text), value >= 1 else {
            throw UsageError("--quantity must be a whole number of at least 1, not '\(text)'")
        }
        return value
    }
}

/// The JSON form of a purchase result: `{"outcome","purchaseId","transaction","error",...}`.
struct PurchaseReport: Encodable {
    var outcome: String
    var productId: String?
    var purchaseId: String?
    var reason: String?
    var transaction: StoreTransaction?
    var error: String?
    var errorCode: String?

    init(_ result: PurchaseResult) {
        switch result {
        case .purchased(let transaction):
            outcome = "purchased"
            productId = transaction.productId
            self.transaction = transaction
        case .pending(let pending):
            outcome = "pending"
            productId = pending.productId
            purchaseId = pending.purchaseId
            reason = pending.reason.rawValue
        case .cancelled:
            outcome = "cancelled"
            error = "the user cancelled the purchase"
            errorCode = "userCancelled"
        case .failed(let failure):
            outcome = "failed"
            error = failure.message
            errorCode = failure.code.rawValue
        }
    }

    /// 0 purchased or pending; 2 bad input (a product not in the catalog, a quantity it does not allow);
    /// 1 any other refusal or failure (cancelled, not allowed, an injected fault), as `tally market buy`.
    var exitCode: Int32 {
        switch (outcome, errorCode) {
        case ("purchased", _), ("pending", _): ExitCode.ok
        case (_, SandboxError.Code.unknownProduct.rawValue?), (_, SandboxError.Code.invalidQuantity.rawValue?),
             (_, SandboxError.Code.invalidOfferIdentifier.rawValue?), (_, SandboxError.Code.missingOfferParameters.rawValue?):
            ExitCode.usage
        default: ExitCode.refused
        }
    }

    /// One line for people.
    var sentence: String {
        switch outcome {
        case "purchased":
            let t = transaction!
            let expiry = t.expiresDate.map { ", expires \($0.formatted(.iso8601))" } ?? ""
            return "Purchased \(t.productId) ×\(t.quantity): transaction \(t.transactionId)\(expiry)"
        case "pending":
            return "Pending (\(reason ?? "approval")): purchase \(purchaseId ?? "?") for \(productId ?? "?") "
                + "waits; approve or decline it with 'tally sandbox approve|decline \(purchaseId ?? "ID")'"
        case "cancelled":
            return "Cancelled: the user cancelled the purchase; nothing was charged"
        default:
            return "Failed: \(error ?? "unknown error")"
        }
    }
}
