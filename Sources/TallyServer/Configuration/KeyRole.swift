/// What an API key may do.
public enum KeyRole: String, Sendable, Hashable, CaseIterable {
    /// Shipped in the app: post transactions and receipts, read a customer's state.
    case `public`
    /// The backend's key: everything, including spends and history.
    case secret
    /// The dashboard's key: read-only — the `/v1/dashboard/…` endpoints, a customer's state and history; no
    /// posts, no spends, no reconciliation.
    case dashboard
}
