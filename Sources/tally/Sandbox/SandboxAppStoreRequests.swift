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
            try SandboxSheets.list(context, "purchase intents", Sandbox.purchaseIntents) { intent in
                "\(intent.id)  \(intent.productId)  \(intent.date.formatted(.iso8601))  \(SandboxSheets.taken(intent.deliveredDate))"
            }
            return ExitCode.ok
        }
        let intent = try context.mutate(accounts: [context.account]) {
            try $0.promote(productId, account: context.account)
        }
        try SandboxSheets.show(intent, context, "Promoted: \(intent.productId) (\(intent.id)) waits for account "
            + "\(context.account)'s app, which receives it once (Store.promotedPurchases()) and completes it by buying")
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
            try SandboxSheets.list(context, "App Store messages", Sandbox.messages) { message in
                "\(message.id)  \(message.reason.rawValue)  \(message.date.formatted(.iso8601))  "
                    + SandboxSheets.taken(message.deliveredDate)
                    + (message.displayedDate.map { ", shown \($0.formatted(.iso8601))" } ?? "")
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
        try SandboxSheets.show(message, context, "Message \(message.id) (\(message.reason.rawValue)) waits for account "
            + "\(context.account)'s app, which receives it once (Store.storeMessages()) and shows it when it chooses")
        return ExitCode.ok
    }
}

/// `tally sandbox sheets [--account A] [--json]`: the App Store sheets the account's apps showed (manage
/// subscriptions, offer code redemption), oldest first. Refund requests are in `tally sandbox refund-request TX`.
enum SandboxSheets {
    static func run(_ words: [String]) throws -> Int32 {
        let context = SandboxContext(try Arguments.sandbox(words))
        try list(context, "App Store sheets shown", Sandbox.sheetCalls) { call in
            "\(call.date.formatted(.iso8601))  \(call.sheet.rawValue)  device \(call.device)"
                + (call.subscriptionGroupId.map { "  group \($0)" } ?? "")
        }
        return ExitCode.ok
    }

    /// Prints one of the account's lists: as JSON with `--json`, else a line each (or that there is none).
    static func list<Element: Encodable>(_ context: SandboxContext, _ what: String,
                                         _ read: (Sandbox) -> (String) -> [Element],
                                         line: (Element) -> String) throws {
        let sandbox = try context.directory.load(account: context.account, events: false)
        let items = read(sandbox)(context.account)
        if context.json { try context.printJSON(items); return }
        if items.isEmpty { print("No \(what) for account \(context.account)") }
        for item in items { print(line(item)) }
    }

    /// Prints what a command made: as JSON with `--json`, else `headline`.
    static func show<Value: Encodable>(_ value: Value, _ context: SandboxContext, _ headline: String) throws {
        if context.json { try context.printJSON(value) } else { print(headline) }
    }

    /// Whether an app took an intent or a message, and when.
    static func taken(_ date: Date?) -> String {
        date.map { "taken by the app \($0.formatted(.iso8601))" } ?? "waiting for the app"
    }
}
