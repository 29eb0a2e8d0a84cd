import Foundation
import TallySandbox

/// `tally sandbox notifications [--json] [--data DIR]`: every App Store Server Notification recorded, oldest
/// `signedDate` first, with where its delivery stands and each attempt.
enum SandboxNotifications {
    static func run(_ words: [String]) throws -> Int32 {
        let arguments = try Arguments.sandbox(words)
        if let extra = arguments.positionals.first { throw UsageError("unexpected argument '\(extra)'") }
        let context = SandboxContext(arguments)
        let notifications = try context.directory.notifications()
        if context.json {
            try context.printJSON(notifications)
            return ExitCode.ok
        }
        if notifications.isEmpty {
            print("no notifications (set a URL with 'tally sandbox set notification-url URL' to record them)")
        }
        let dates = ISO8601DateFormatter()
        for notification in notifications {
            let kind = [notification.notificationType, notification.subtype].compactMap { $0 }.joined(separator: "/")
            var line = "\(notification.sequence). \(kind) \(notification.notificationUUID) signed \(dates.string(from: notification.signedDate))"
            if let original = notification.originalTransactionId { line += " original \(original)" }
            line += " — \(notification.status.rawValue)"
            if let next = notification.nextAttemptDate { line += ", next attempt \(dates.string(from: next))" }
            print(line)
            for attempt in notification.sendAttempts {
                print("    \(dates.string(from: attempt.attemptDate)) \(attempt.sendAttemptResult.rawValue)"
                      + (attempt.httpStatus.map { " (HTTP \($0))" } ?? ""))
            }
        }
        return ExitCode.ok
    }
}
