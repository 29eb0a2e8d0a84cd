/// Where App Store Server Notifications arrive (the `notifications` object of `tally-server.json`).
public struct NotificationSettings: Sendable, Hashable {
    /// The default ``path``.
    public static let defaultPath = "/v1/notifications/apple"

    /// The exact request path Apple posts to (`notifications.path`).
    public var path: String
    /// The largest body accepted there, in bytes (at most ``ServerLimits/maxBodyBytes``): an outer JWS holding
    /// a signed transaction and a signed renewal info is about 20 KB.
    public var maxBodyBytes: Int

    /// Creates settings; by default `/v1/notifications/apple` and 256 KiB.
    public init(path: String = NotificationSettings.defaultPath, maxBodyBytes: Int = 262_144) {
        self.path = path
        self.maxBodyBytes = maxBodyBytes
    }
}
