import Foundation
import TallyCore
import TallySandbox

/// `tally sandbox promote [PRODUCT_ID] [--account A] [--json]`: the customer starts a purchase in the App Store (a
/// promoted in-app purchase); the account's app receives it once, as StoreKit's `PurchaseIntent`
/// (`Store.promotedPurchases()`), and completes it by buying. Without a product it lists the account's intents.
enum SandboxPromote {
    static func run(_ words: [String]) throws -> Int32 {
        let arguments = try Arguments.sandbox(words)
        let context = SandboxContext(arguments)
        guard let productId = arguments.positionals.first else {
            let intents = try context.directory.load(account: context.account, events: false)
                .purchaseIntents(account: context.account)
            if context.json { try context.printJSON(intents); return ExitCode.ok }
            if intents.isEmpty { print("No purchase intents for account \(context.account)") }
            for intent in intents {
                let state = intent.deliveredDate.map { "taken by the app \($0.formatted(.iso8601))" } ?? "waiting for the app"
                print("\(intent.id)  \(intent.productId)  \(intent.date.formatted(.iso8601))  \(state)")
            }
            return ExitCode.ok
        }
        let intent = try context.mutate(accounts: [context.account]) {
            try $0.promote(productId, account: context.account)
        }
        if context.json {
            try context.printJSON(intent)
        } else {
            print("Promoted: \(intent.productId) (\(intent.id)) waits for account \(context.account)'s app, which "
                + "receives it once (Store.promotedPurchases()) and completes it by buying")
        }
        return ExitCode.ok
    }
}

/// `tally sandbox message [billing-issue|price-increase] [--account A] [--json]`: the App Store has a message for the
/// customer (StoreKit's `Message`); the account's app receives it once (`Store.storeMessages()`) and shows it or
/// not. Without a reason it lists the account's messages: waiting, taken, shown.
enum SandboxMessageCommand {
    static func run(_ words: [String]) throws -> Int32 {
        let arguments = try Arguments.sandbox(words)
        let context = SandboxContext(arguments)
        guard let text = arguments.positionals.first else {
            let messages = try context.directory.load(account: context.account, events: false)
                .messages(account: context.account)
            if context.json { try context.printJSON(messages); return ExitCode.ok }
            if messages.isEmpty { print("No App Store messages for account \(context.account)") }
            for message in messages {
                var state = message.deliveredDate.map { "taken by the app \($0.formatted(.iso8601))" } ?? "waiting for the app"
                if let shown = message.displayedDate { state += ", shown \(shown.formatted(.iso8601))" }
                print("\(message.id)  \(message.reason.rawValue)  \(message.date.formatted(.iso8601))  \(state)")
            }
            return ExitCode.ok
        }
        guard let reason = SandboxMessage.Reason(rawValue: text) else {
            let reasons = SandboxMessage.Reason.allCases.map(\.rawValue).joined(separator: " or ")
            throw UsageError("the message's reason is \(reasons), not '\(text)'")
        }
        let message = try context.mutate(accounts: [context.account]) {
            $0.sendMessage(reason, account: context.account)
        }
        if context.json {
            try context.printJSON(message)
        } else {
            print("Message \(message.id) (\(message.reason.rawValue)) waits for account \(context.account)'s app, which "
                + "receives it once (Store.storeMessages()) and shows it when it chooses")
        }
        return ExitCode.ok
    }
}

/// `tally sandbox sheets [--account A] [--json]`: the App Store sheets the account's apps showed (manage
/// subscriptions, offer code redemption), oldest first. Refund requests are in `tally sandbox refund-request TX`.
enum SandboxSheets {
    static func run(_ words: [String]) throws -> Int32 {
        let arguments = try Arguments.sandbox(words)
        let context = SandboxContext(arguments)
        let calls = try context.directory.load(account: context.account, events: false).sheetCalls(account: context.account)
        if context.json { try context.printJSON(calls); return ExitCode.ok }
        if calls.isEmpty { print("No App Store sheets shown for account \(context.account)") }
        for call in calls {
            var line = "\(call.date.formatted(.iso8601))  \(call.sheet.rawValue)  device \(call.device)"
            if let group = call.subscriptionGroupId { line += "  group \(group)" }
            print(line)
        }
        return ExitCode.ok
    }
}
