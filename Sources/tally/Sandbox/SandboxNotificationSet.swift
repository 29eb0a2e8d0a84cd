import Foundation
import TallySandbox

/// `tally sandbox set notification-url URL|none` and `tally sandbox set notification-retries on|off`: where
/// `tally sandbox serve` posts App Store Server Notifications, and whether it retries failed deliveries.
enum SandboxNotificationSet {
    /// The settings this handles.
    static let names = ["notification-url", "notification-retries"]

    /// Handles `name` when it is a notification setting (its exit code), else nil.
    static func run(_ name: String, _ arguments: Arguments, _ context: SandboxContext) throws -> Int32? {
        switch name {
        case "notification-url":
            let text = try arguments.positional(1, "URL|none")
            let url = text == "none" ? nil : try parseURL(text)
            try context.mutate(accounts: []) { $0.setNotificationURL(url) }
            print(url.map { "notifications go to \($0)" } ?? "notifications go nowhere (none are recorded)")
            return ExitCode.ok
        case "notification-retries":
            let enabled = try Switch.parse(try arguments.positional(1, "on|off"))
            try context.mutate(accounts: []) { $0.setNotificationRetries(enabled) }
            print(enabled ? "notification-retries is on (5 retries at 1, 12, 24, 48 and 72 hours)"
                          : "notification-retries is off (one attempt, as Apple's sandbox environment)")
            return ExitCode.ok
        default:
            return nil
        }
    }

    /// An absolute http or https URL with a host.
    static func parseURL(_ text: String) throws(UsageError) -> String {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty else {
            throw UsageError("notification-url must be an http:// or https:// URL with a host (or none), got '\(text)'")
        }
        return text
    }
}
