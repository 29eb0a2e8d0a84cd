import TallyCore

extension ServerConfiguration {
    static let notificationKeys = ["path", "maxBodyBytes"]

    /// Paths the API answers itself; the notification path may not take one of them.
    static let reservedPaths = ["/healthz", "/readyz", "/metrics"]

    static func loadNotifications(_ node: JSONCursor?, reader: inout ConfigurationReader) -> NotificationSettings {
        var settings = NotificationSettings()
        guard let node, let members = reader.object(node, allowed: notificationKeys) else { return settings }
        if let value = members["path"], let path = reader.string(value) {
            if let problem = Self.problem(withNotificationPath: path) {
                reader.problem("notifications.path", problem)
            } else {
                settings.path = path
            }
        }
        if let value = members["maxBodyBytes"], let bytes = reader.integer(value, in: 1...(1 << 30)) {
            settings.maxBodyBytes = Int(bytes)
        }
        return settings
    }

    /// Why `path` cannot be the notification path; nil when it can.
    static func problem(withNotificationPath path: String) -> String? {
        guard path.hasPrefix("/"), path.count > 1 else { return "must be a path starting with \"/\", such as \"\(NotificationSettings.defaultPath)\"" }
        guard !path.contains("?"), !path.contains("#"), !path.contains(" ") else {
            return "must be a plain path, with no query, fragment or space"
        }
        if reservedPaths.contains(path) || path.hasPrefix("/v1/customers/") || path == "/v1/customers" {
            return "\"\(path)\" is a route of the API already"
        }
        return nil
    }
}
