import Foundation

/// A transaction chain moving from one customer to another under ``OwnershipPolicy/transfer``.
public struct OwnershipTransfer: Sendable, Hashable, Codable {
    /// The chain that moved.
    public var originalTransactionId: String
    /// The customer it belonged to.
    public var fromAppUserId: String
    /// The customer it belongs to now.
    public var toAppUserId: String
    /// When the server moved it.
    public var date: Date

    /// Creates a transfer.
    public init(originalTransactionId: String, fromAppUserId: String, toAppUserId: String, date: Date) {
        self.originalTransactionId = originalTransactionId
        self.fromAppUserId = fromAppUserId
        self.toAppUserId = toAppUserId
        self.date = date
    }
}
