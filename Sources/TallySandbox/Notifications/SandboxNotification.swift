import Foundation

/// One App Store Server Notification V2 the sandbox recorded for sending: what it is, its `signedPayload` as
/// signed when its event happened, and every attempt to deliver it.
public struct SandboxNotification: Sendable, Codable, Hashable {
    /// Where delivery stands.
    public enum Status: String, Sendable, Codable, Hashable {
        /// Not delivered yet; ``SandboxNotification/nextAttemptDate`` says when it is (re)sent.
        case pending
        /// An attempt succeeded.
        case delivered
        /// Every attempt failed and no retry is left.
        case failed
    }

    /// One delivery attempt.
    public struct Attempt: Sendable, Codable, Hashable {
        /// Sandbox time of the attempt (`attemptDate`).
        public var attemptDate: Date
        /// What came of it (`sendAttemptResult`).
        public var sendAttemptResult: SendAttemptResult
        /// The receiver's HTTP status, when it answered.
        public var httpStatus: Int?

        /// Creates an attempt.
        public init(attemptDate: Date, sendAttemptResult: SendAttemptResult, httpStatus: Int? = nil) {
            self.attemptDate = attemptDate
            self.sendAttemptResult = sendAttemptResult
            self.httpStatus = httpStatus
        }
    }

    /// Order of recording, from 1.
    public var sequence: Int
    /// `notificationUUID`, the same on every attempt.
    public var notificationUUID: String
    /// `notificationType`.
    public var notificationType: String
    /// `subtype`, if any.
    public var subtype: String?
    /// `signedDate`: sandbox time of the event, the same on every attempt.
    public var signedDate: Date
    /// The account the event was about ("" for a TEST notification).
    public var account: String
    /// The event's original transaction id, if any.
    public var originalTransactionId: String?
    /// The event's transaction id, if any.
    public var transactionId: String?
    /// The event's position in the sandbox log (nil for a TEST notification).
    public var eventSequence: Int?
    /// The token Request a Test Notification answered, for a TEST notification.
    public var testNotificationToken: String?
    /// The JWS posted as `{"signedPayload": …}`.
    public var signedPayload: String
    /// Where delivery stands.
    public var status: Status
    /// Sandbox time of the next attempt while ``status`` is pending.
    public var nextAttemptDate: Date?
    /// Every attempt so far, oldest first.
    public var sendAttempts: [Attempt]
}
