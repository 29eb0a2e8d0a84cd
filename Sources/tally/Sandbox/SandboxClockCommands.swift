import Foundation
import TallyCore
import TallySandbox

/// `tally sandbox advance DURATION` (45m, 12h, 3d, 2w, 1M, 1y): move the store's clock.
enum SandboxAdvance {
    static func run(_ words: [String]) throws -> Int32 {
        let arguments = try Arguments.sandbox(words)
        let context = SandboxContext(arguments)
        let duration = try SandboxDuration(parsing: try arguments.positional(0, "DURATION"))
        let (now, events) = try context.mutate { sandbox -> (Date, [SandboxEvent]) in
            let before = sandbox.events.count
            sandbox.advance(by: duration)
            return (sandbox.now, Array(sandbox.events.dropFirst(before)))
        }
        if context.json {
            try context.printJSON(Advanced(now: now, events: events))
        } else {
            for event in events { print(EventLine.text(event)) }
            print("Now \(now.formatted(.iso8601))")
        }
        return ExitCode.ok
    }

    private struct Advanced: Encodable {
        var now: Date
        var events: [SandboxEvent]
    }
}

/// `tally sandbox auto-renew PRODUCT_ID on|off [--account A]`
enum SandboxAutoRenew {
    static func run(_ words: [String]) throws -> Int32 {
        let arguments = try Arguments.sandbox(words)
        let context = SandboxContext(arguments)
        let productId = try arguments.positional(0, "PRODUCT_ID")
        let enabled = try Switch.parse(try arguments.positional(1, "on|off"))
        try context.mutate(accounts: [context.account]) { try $0.setAutoRenew(productId: productId, enabled: enabled, account: context.account) }
        print("Auto-renew of \(productId) for \(context.account) is \(enabled ? "on" : "off")")
        return ExitCode.ok
    }
}

/// `tally sandbox set ask-to-buy|billing-issue|grace-period|parental-controls|interrupted on|off [--account A]`
enum SandboxSet {
    static func run(_ words: [String]) throws -> Int32 {
        let arguments = try Arguments.sandbox(words)
        let context = SandboxContext(arguments)
        let name = try arguments.positional(0, "SETTING")
        if let code = try SandboxNotificationSet.run(name, arguments, context) { return code }
        guard let toggle = SandboxToggle(rawValue: name) else {
            let names = (SandboxToggle.allCases.map(\.rawValue) + SandboxNotificationSet.names).joined(separator: ", ")
            throw UsageError("'\(name)' is not a setting; use one of \(names)")
        }
        let enabled = try Switch.parse(try arguments.positional(1, "on|off"))
        let account = arguments.value("account")
        try context.mutate { $0.set(toggle, enabled: enabled, account: account) }
        print("\(toggle.rawValue) is \(enabled ? "on" : "off")" + (account.map { " for \($0)" } ?? ""))
        return ExitCode.ok
    }
}

/// `tally sandbox fail products|purchase|restore ERROR [--count N]`; `ERROR none` or `--count 0` clears the
/// API's faults.
enum SandboxFail {
    static func run(_ words: [String]) throws -> Int32 {
        let arguments = try Arguments.sandbox(words, allowed: ["count"])
        let context = SandboxContext(arguments)
        let apiName = try arguments.positional(0, "API")
        guard let api = SandboxAPI(rawValue: apiName) else {
            throw UsageError("'\(apiName)' is not an API; use products, purchase or restore")
        }
        let errorName = try arguments.positional(1, "ERROR")
        let count = try arguments.value("count").map(Self.parseCount) ?? 1
        if errorName == "none" || count == 0 {
            if errorName != "none", SandboxFailure(rawValue: errorName) == nil { throw unknownError(errorName) }
            let removed = try context.mutate(accounts: []) { $0.clearFaults(api) }
            print("\(api.rawValue) calls no longer fail (\(removed) fault\(removed == 1 ? "" : "s") cleared)")
            return ExitCode.ok
        }
        guard let failure = SandboxFailure(rawValue: errorName) else { throw unknownError(errorName) }
        try context.mutate(accounts: []) { $0.failNext(api, with: failure, count: count) }
        print("The next \(count) \(api.rawValue) call\(count == 1 ? "" : "s") will fail with \(failure.rawValue)")
        return ExitCode.ok
    }

    private static func unknownError(_ name: String) -> UsageError {
        let names = SandboxFailure.allCases.map(\.rawValue).joined(separator: ", ")
        return UsageError("'\(name)' is not an error; use one of \(names), or none to clear")
    }

    /// `--count N`: a whole number, 0 to clear.
    private static func parseCount(_ text: String) throws -> Int {
        guard let value = Int(text), value >= 0 else {
            throw UsageError("--count must be a whole number (0 clears the faults), not '\(text)'")
        }
        return value
    }
}

/// `on` / `off` arguments.
enum Switch {
    static func parse(_ text: String) throws -> Bool {
        switch text {
        case "on", "true", "yes": return true
        case "off", "false", "no": return false
        default: throw UsageError("expected on or off, not '\(text)'")
        }
    }
}
