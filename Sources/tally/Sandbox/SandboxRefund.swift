import Foundation
import TallyCore
import TallySandbox

/// `tally sandbox refund TRANSACTION_ID [--reason other|app-issue]`
enum SandboxRefund {
    static func run(_ words: [String]) throws -> Int32 {
        let arguments = try Arguments.sandbox(words, allowed: ["reason"])
        let context = SandboxContext(arguments)
        let transactionId = try arguments.positional(0, "TRANSACTION_ID")
        let reason: RevocationReason
        switch arguments.value("reason") ?? "other" {
        case "other": reason = .other
        case "app-issue": reason = .appIssue
        case let other: throw UsageError("--reason must be other or app-issue, not '\(other)'")
        }
        let transaction = try context.mutate { try $0.refund(transactionId: transactionId, reason: reason) }
        if context.json {
            try context.printJSON(transaction)
        } else {
            print("Refunded \(transaction.transactionId) (\(transaction.productId)); revoked at "
                + (transaction.revocationDate?.formatted(.iso8601) ?? "?"))
        }
        return ExitCode.ok
    }
}
