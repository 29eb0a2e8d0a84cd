import Foundation
import TallyCore
import TallySandbox

/// `tally sandbox refund-request TRANSACTION_ID [--reason R] [--decide approve|decline|auto] [--json]`: the
/// customer asks Apple for a refund (CONSUMPTION_REQUEST); with `--decide` Apple ends the request (REFUND or
/// REFUND_DECLINED; `auto` decides by the consumption information received). Without `--reason` or `--decide`
/// on a transaction that already has a request, it shows the requests and the consumption information.
enum SandboxRefundRequestCommand {
    static let reasons: [String: String] = [
        "unintended-purchase": "UNINTENDED_PURCHASE", "fulfillment-issue": "FULFILLMENT_ISSUE",
        "unsatisfied-with-purchase": "UNSATISFIED_WITH_PURCHASE", "legal": "LEGAL", "other": "OTHER",
    ]

    struct View: Encodable {
        var transactionId: String
        var requests: [SandboxRefundRequest]
        var consumptionInfo: SandboxConsumptionInfo?
        /// What ``SandboxConsumptionInfo/decision`` would decide now (approve when no information came).
        var decisionByConsumptionInfo: SandboxRefundRequest.Decision
    }

    static func run(_ words: [String]) throws -> Int32 {
        let arguments = try Arguments.sandbox(words, allowed: ["reason", "decide"])
        let context = SandboxContext(arguments)
        let transactionId = try arguments.positional(0, "TRANSACTION_ID")
        var reason: String?
        if let text = arguments.value("reason") {
            guard let value = reasons[text] ?? (SandboxRefundRequest.reasons.contains(text) ? text : nil) else {
                throw UsageError("--reason must be one of \(reasons.keys.sorted().joined(separator: ", ")), not '\(text)'")
            }
            reason = value
        }
        var decide: SandboxRefundRequest.Decision??
        if let text = arguments.value("decide") {
            switch text {
            case "approve": decide = .some(.approve)
            case "decline": decide = .some(.decline)
            case "auto": decide = .some(nil)
            default: throw UsageError("--decide must be approve, decline or auto, not '\(text)'")
            }
        }
        if reason != nil && decide != nil { throw UsageError("--reason makes a request, --decide ends one: give one of them") }
        let owner = try SandboxStore(directory: context.directory).account(ofTransaction: transactionId) ?? context.account
        if let decide {
            let ended = try context.mutate(accounts: [owner]) { try $0.decideRefund(transactionId: transactionId, decision: decide) }
            try show(context, owner: owner, transactionId: transactionId,
                     headline: ended.decision == .approve ? "Refund approved: \(transactionId) refunded (REFUND)"
                        : "Refund declined: \(transactionId) (REFUND_DECLINED)")
            return ExitCode.ok
        }
        let existing = try context.directory.load(account: owner, events: false).refundRequests(account: owner)
            .filter { $0.transactionId == transactionId }
        if reason == nil, !existing.isEmpty {
            try show(context, owner: owner, transactionId: transactionId, headline: nil)
            return ExitCode.ok
        }
        let made = try context.mutate(accounts: [owner]) {
            try $0.requestRefund(transactionId: transactionId, reason: reason ?? "OTHER")
        }
        try show(context, owner: owner, transactionId: transactionId,
                 headline: "Refund requested for \(transactionId) (\(made.reason)): CONSUMPTION_REQUEST; end it with "
                    + "'tally sandbox refund-request \(transactionId) --decide approve|decline|auto'")
        return ExitCode.ok
    }

    private static func show(_ context: SandboxContext, owner: String, transactionId: String, headline: String?) throws {
        let sandbox = try context.directory.load(account: owner, events: false)
        let info = sandbox.consumptionInfo(transactionId: transactionId)
        let view = View(transactionId: transactionId,
                        requests: sandbox.refundRequests(account: owner).filter { $0.transactionId == transactionId },
                        consumptionInfo: info, decisionByConsumptionInfo: info?.decision ?? .approve)
        if context.json { try context.printJSON(view); return }
        if let headline { print(headline) }
        for request in view.requests {
            var line = "Request \(request.requestDate.formatted(.iso8601))  \(request.reason)  "
            if let decision = request.decision {
                line += "\(decision == .approve ? "approved" : "declined") \(request.decidedDate?.formatted(.iso8601) ?? "")"
                if request.decidedByConsumptionInfo == true { line += " (by the consumption information)" }
            } else {
                line += "open"
            }
            print(line)
        }
        if let info {
            print("Consumption information (v\(info.version), \(info.receivedDate.formatted(.iso8601))): \(info.body)")
            print("It decides: \(info.decision.rawValue)")
        } else {
            print("No consumption information received (Send Consumption Information): it decides approve")
        }
    }
}

/// `tally sandbox refund-reverse TRANSACTION_ID [--json]`: Apple reverses a refund (REFUND_REVERSED).
enum SandboxRefundReverse {
    static func run(_ words: [String]) throws -> Int32 {
        let arguments = try Arguments.sandbox(words)
        let context = SandboxContext(arguments)
        let transactionId = try arguments.positional(0, "TRANSACTION_ID")
        let owner = try SandboxStore(directory: context.directory).account(ofTransaction: transactionId) ?? context.account
        let transaction = try context.mutate(accounts: [owner]) { try $0.reverseRefund(transactionId: transactionId) }
        if context.json {
            try context.printJSON(transaction)
        } else {
            print("Refund reversed: \(transaction.transactionId) (\(transaction.productId)) is no longer revoked (REFUND_REVERSED)")
        }
        return ExitCode.ok
    }
}
