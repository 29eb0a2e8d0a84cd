import Foundation
import TallyCore
import TallySandbox

/// The account's history as `history --json` prints it: transactions and renewal infos in Apple's field names,
/// with their signed forms, pending purchases and the store's event log.
struct HistoryView: Encodable {
    struct Item: Encodable {
        var transaction: StoreTransaction
        var signedTransactionInfo: String?
        /// The order ID on the customer's receipt (Look Up Order ID).
        var orderId: String?
    }

    struct Renewal: Encodable {
        var renewalInfo: RenewalInfo
        var signedRenewalInfo: String?
    }

    var account: String
    var now: Date
    var transactions: [Item]
    var renewalInfos: [Renewal]
    var pending: [PendingPurchase]
    var events: [SandboxEvent]

    init(sandbox: Sandbox, account: String, directory: URL) throws {
        self.account = account
        now = sandbox.now
        let signer = try SandboxCertificateAuthority.loadOrGenerate(in: directory, now: sandbox.now).signer()
        transactions = try sandbox.transactions(account: account).map {
            Item(transaction: $0, signedTransactionInfo: try signer.signTransaction($0),
                 orderId: sandbox.orderId(transactionId: $0.transactionId))
        }
        renewalInfos = try sandbox.renewalInfos(account: account).map {
            Renewal(renewalInfo: $0, signedRenewalInfo: try signer.signRenewalInfo($0))
        }
        pending = sandbox.pendingPurchases(account: account)
        events = sandbox.events.filter { $0.account == account }
    }
}

/// One-line renderings for people.
enum TransactionLine {
    static func text(_ t: StoreTransaction, orderId: String? = nil) -> String {
        var parts = [t.purchaseDate.formatted(.iso8601), t.transactionId, t.productId, t.type.rawValue]
        if let orderId { parts.append("order \(orderId)") }
        if t.quantity > 1 { parts.append("×\(t.quantity)") }
        if let expires = t.expiresDate { parts.append("expires \(expires.formatted(.iso8601))") }
        if let revoked = t.revocationDate { parts.append("REVOKED \(revoked.formatted(.iso8601))") }
        if t.isUpgraded == true { parts.append("upgraded") }
        return parts.joined(separator: "  ")
    }
}

enum EventLine {
    static func text(_ e: SandboxEvent) -> String {
        var parts = ["#\(e.sequence)", e.date.formatted(.iso8601), e.kind.rawValue, e.account]
        if let product = e.productId { parts.append(product) }
        if let transaction = e.transactionId { parts.append("transaction \(transaction)") }
        if let purchase = e.purchaseId { parts.append("purchase \(purchase)") }
        if let detail = e.detail { parts.append(detail) }
        return parts.joined(separator: "  ")
    }
}
