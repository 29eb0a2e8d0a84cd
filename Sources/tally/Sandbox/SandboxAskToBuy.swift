import Foundation
import TallyCore
import TallySandbox

/// `tally sandbox approve|decline|resolve PURCHASE_ID`: answer an Ask to Buy request or an interrupted purchase.
enum SandboxAskToBuy {
    static func run(_ verb: String, _ words: [String]) throws -> Int32 {
        let arguments = try Arguments.sandbox(words)
        let context = SandboxContext(arguments)
        let purchaseId = try arguments.positional(0, "PURCHASE_ID")
        let transaction: StoreTransaction? = try context.mutate { sandbox in
            switch verb {
            case "approve": return try sandbox.approve(purchaseId: purchaseId)
            case "resolve": return try sandbox.resolveInterrupted(purchaseId: purchaseId)
            default:
                try sandbox.decline(purchaseId: purchaseId)
                return nil
            }
        }
        if context.json {
            try context.printJSON(Answer(purchaseId: purchaseId, outcome: verb == "decline" ? "declined" : "purchased",
                                         transaction: transaction))
        } else if let transaction {
            print("\(verb == "approve" ? "Approved" : "Resolved") \(purchaseId): transaction "
                + "\(transaction.transactionId) for \(transaction.productId) is delivered to the app")
        } else {
            print("Declined \(purchaseId): nothing was charged; the app ends its pending purchase with a "
                + "declined event")
        }
        return ExitCode.ok
    }

    private struct Answer: Encodable {
        var purchaseId: String
        var outcome: String
        var transaction: StoreTransaction?
    }
}
