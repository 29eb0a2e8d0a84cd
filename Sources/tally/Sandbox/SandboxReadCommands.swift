import Foundation
import TallyCore
import TallySandbox

/// `tally sandbox restore [--account A] [--device D]`: what a restore on that device brings back.
enum SandboxRestore {
    static func run(_ words: [String]) throws -> Int32 {
        let arguments = try Arguments.sandbox(words)
        let context = SandboxContext(arguments)
        let restored = try context.answer(accounts: [context.account]) { sandbox throws(SandboxError) in
            try sandbox.restore(account: context.account, device: context.device)
        }
        if context.json {
            try context.printJSON(["transactions": restored])
        } else if restored.isEmpty {
            print("Nothing to restore for \(context.account)")
        } else {
            for transaction in restored { print("Restored \(transaction.productId) (\(transaction.transactionId))") }
        }
        return ExitCode.ok
    }
}

/// `tally sandbox state [--account A] [--json]`: what the customer owns now.
enum SandboxState {
    static func run(_ words: [String]) throws -> Int32 {
        let arguments = try Arguments.sandbox(words)
        let context = SandboxContext(arguments)
        let sandbox = try context.load()
        let view = StateView(sandbox.state(account: context.account))
        if context.json {
            print(try view.json(leading: ["account": context.account]))
        } else {
            print(view.text(now: sandbox.now))
        }
        return ExitCode.ok
    }
}

/// `tally sandbox history [--account A] [--json]`: every transaction, pending purchase, renewal info (JSON) and event.
enum SandboxHistory {
    static func run(_ words: [String]) throws -> Int32 {
        let arguments = try Arguments.sandbox(words)
        let context = SandboxContext(arguments)
        let sandbox = try context.load()
        let history = try HistoryView(sandbox: sandbox, account: context.account, directory: context.url)
        if context.json {
            try context.printJSON(history)
        } else {
            for item in history.transactions { print(TransactionLine.text(item.transaction, orderId: item.orderId)) }
            for waiting in history.pending {
                let verbs = waiting.reason == .askToBuy ? "approve|decline" : "resolve"
                print("Pending: \(waiting.purchaseId)  \(waiting.productId)  \(waiting.reason.rawValue)  "
                    + "('tally sandbox \(verbs) \(waiting.purchaseId)')")
            }
            for event in history.events { print(EventLine.text(event)) }
        }
        return ExitCode.ok
    }
}
