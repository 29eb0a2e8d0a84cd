import Foundation
import TallyCore
import TallySandbox

/// `tally sandbox buy PRODUCT_ID [--account A] [--device D] [--quantity N] [--app-account-token UUID] [--json]`
enum SandboxBuy {
    static func run(_ words: [String]) throws -> Int32 {
        let arguments = try Arguments.sandbox(words, allowed: ["quantity", "app-account-token"])
        let context = SandboxContext(arguments)
        let productId = try arguments.positional(0, "PRODUCT_ID")
        let quantity = try arguments.value("quantity").map(Self.parseQuantity) ?? 1
        let result = try context.mutate(accounts: [context.account]) { sandbox in
            sandbox.purchase(productId, account: context.account, device: context.device, quantity: quantity,
                             appAccountToken: arguments.value("app-account-token"))
        }
        let report = PurchaseReport(result)
        if context.json {
            try context.printJSON(report)
        } else {
            print(report.sentence)
        }
        return report.exitCode
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
        case (_, SandboxError.Code.unknownProduct.rawValue?), (_, SandboxError.Code.invalidQuantity.rawValue?):
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
