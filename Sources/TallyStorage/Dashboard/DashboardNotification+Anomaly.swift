import Foundation

extension DashboardNotification {
    /// How long a notification may wait for its chain's owner, or take from Apple's signature to this server,
    /// before the dashboard calls it out.
    public static let anomalyThreshold: TimeInterval = 3_600

    /// Types whose facts normally change a customer's state: one of them that changed nothing came after newer
    /// facts of its chain (out of order, or a replay).
    static let stateChangingTypes: Set<String> = [
        "SUBSCRIBED", "DID_RENEW", "DID_FAIL_TO_RENEW", "GRACE_PERIOD_EXPIRED", "EXPIRED", "REFUND", "REFUND_REVERSED",
        "REVOKE", "ONE_TIME_CHARGE", "OFFER_REDEEMED", "DID_CHANGE_RENEWAL_PREF", "DID_CHANGE_RENEWAL_STATUS",
        "RENEWAL_EXTENDED",
    ]

    /// What was unusual about its delivery, in words, for the dashboard; nil when nothing was: received an hour
    /// or more after Apple signed it (Apple's retries: this server missed earlier attempts), waiting an hour or
    /// more for a customer to post its chain, or a state-changing type that changed nothing (it came after newer
    /// facts). Several are joined with "; ".
    public func anomaly(at now: Date) -> String? {
        var notes: [String] = []
        let late = receivedDate.timeIntervalSince(signedDate)
        if late >= Self.anomalyThreshold {
            notes.append("received \(Self.hours(late)) after Apple signed it (Apple's retries)")
        }
        let waiting = now.timeIntervalSince(receivedDate)
        if result == "pending", waiting >= Self.anomalyThreshold {
            notes.append("waiting \(Self.hours(waiting)) for a customer to post its chain")
        }
        if result == "unchanged", Self.stateChangingTypes.contains(notificationType) {
            notes.append("changed nothing: it came after newer facts of its chain (out of order or replayed)")
        }
        return notes.isEmpty ? nil : notes.joined(separator: "; ")
    }

    /// `3 h`, `2 d 4 h`: whole hours, days from 48 hours on.
    static func hours(_ seconds: TimeInterval) -> String {
        let hours = Int(seconds / 3_600)
        return hours >= 48 ? "\(hours / 24) d \(hours % 24) h" : "\(hours) h"
    }
}
