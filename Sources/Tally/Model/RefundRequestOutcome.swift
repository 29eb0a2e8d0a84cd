import Foundation

/// How a refund request the customer started in the app ended (``Store/beginRefundRequest(for:in:)``). A sent
/// request is not a refund: the App Store decides later, and a refund arrives as a revoked transaction
/// (``StoreEvent/revoked(_:)``).
public enum RefundRequestOutcome: String, Sendable, Hashable, Codable {
    /// The customer sent the request to the App Store (StoreKit's `RefundRequestStatus.success`).
    case requested
    /// The customer closed the sheet without sending it (`userCancelled`).
    case cancelled
    /// The transaction already has a request, or was refunded already: nothing new was sent
    /// (StoreKit's `RefundRequestError.duplicateRequest`).
    case alreadyRequested
}
