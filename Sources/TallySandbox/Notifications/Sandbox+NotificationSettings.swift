import Foundation

extension Sandbox {
    /// Sets where notifications are posted (nil: nowhere, and none are recorded from now on).
    public mutating func setNotificationURL(_ url: String?) {
        settings.notificationURL = url
        log(.settingsChanged, account: "", detail: "notification-url \(url ?? "none")")
    }

    /// Turns retries of failed deliveries on (Apple's production schedule) or off (Apple's sandbox: one attempt).
    public mutating func setNotificationRetries(_ enabled: Bool) {
        settings.notificationRetries = enabled
        log(.settingsChanged, account: "", detail: "notification-retries \(enabled ? "on" : "off")")
    }
}
