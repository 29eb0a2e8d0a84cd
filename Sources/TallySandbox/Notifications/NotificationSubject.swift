import TallyCore

/// What one event's notification is about, as it was when the event was logged: its transaction and the
/// chain's renewal info (see ``Sandbox/notificationSubject(for:)``).
struct NotificationSubject: Sendable, Hashable {
    var transaction: StoreTransaction?
    var renewalInfo: RenewalInfo?
}
