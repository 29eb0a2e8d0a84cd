import Foundation

/// When a notification whose delivery failed is sent again: Apple's production schedule for V2 notifications,
/// 5 retries at 1, 12, 24, 48 and 72 hours after the previous attempt (6 attempts in all); with retries off
/// (Apple's sandbox environment) one attempt only (../shared/docs/server-notifications-v2.md §5).
public enum NotificationRetrySchedule {
    /// Hours from a failed attempt to the next, for the 1st to the 5th retry.
    public static let hoursBetweenAttempts: [Int] = [1, 12, 24, 48, 72]

    /// The date of the next attempt after `attemptsMade` failed attempts, the last at `attemptDate`; nil when
    /// none is left.
    public static func nextAttempt(after attemptDate: Date, attemptsMade: Int, retries: Bool) -> Date? {
        guard retries, attemptsMade >= 1, attemptsMade <= hoursBetweenAttempts.count else { return nil }
        return attemptDate.addingTimeInterval(TimeInterval(hoursBetweenAttempts[attemptsMade - 1] * 3_600))
    }
}
