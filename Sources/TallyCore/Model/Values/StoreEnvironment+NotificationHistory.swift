extension StoreEnvironment {
    /// How many days back Get Notification History reaches in this environment: 180 in Production, 30 in the
    /// Sandbox (../shared/docs/app-store-server-api.md §4.6).
    public var notificationHistoryDays: Int { self == .production ? 180 : 30 }
}
