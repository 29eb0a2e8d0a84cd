/// What an API key may do.
public enum KeyRole: String, Sendable, Hashable, CaseIterable {
    /// Shipped in the app: post transactions and receipts, read a customer's state.
    case `public`
    /// The backend's key: everything, including spends and history.
    case secret
}
