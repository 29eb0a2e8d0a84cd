extension AppStoreAPIError {
    static let startDateTooFarInPast = AppStoreAPIError(status: 400, code: 4_000_012, message:
        "Invalid request. The start date is earlier than the allowed start date.")
    static let invalidPaginationToken = AppStoreAPIError(status: 400, code: 4_000_014, message:
        "Invalid request. The pagination token is invalid.")
    static let invalidNotificationType = AppStoreAPIError(status: 400, code: 4_000_018, message:
        "Invalid request. The notification type or subtype is invalid.")
    static let multipleFiltersSupplied = AppStoreAPIError(status: 400, code: 4_000_019, message:
        "Invalid request. Supply either a transaction id or a notification type, but not both.")
    static let invalidTestNotificationToken = AppStoreAPIError(status: 400, code: 4_000_020, message:
        "Invalid request. The test notification token is invalid.")
    static let serverNotificationURLNotFound = AppStoreAPIError(status: 404, code: 4_040_007, message:
        "No App Store Server Notification URL found for provided app. Check that a URL is configured in App Store Connect for this environment.")
    static let testNotificationNotFound = AppStoreAPIError(status: 404, code: 4_040_008, message:
        "Either the test notification token is expired or the notification and status are not yet available.")
}
