/// What ``CustomerStore/recordNotification(_:at:)`` did.
public struct NotificationOutcome: Sendable, Hashable {
    /// The notification's result (``NotificationResult/duplicate`` for a retry).
    public var result: NotificationResult
    /// The customer it was applied to; nil when pending, recorded only, or a duplicate.
    public var appUserId: String?
    /// Every customer whose stored data changed in the write (the owner, and the owners of chains adopted
    /// with it); their cached state is stale.
    public var customersChanged: [String]

    /// Creates an outcome.
    public init(result: NotificationResult, appUserId: String? = nil, customersChanged: [String] = []) {
        self.result = result
        self.appUserId = appUserId
        self.customersChanged = customersChanged
    }
}
