import Foundation
@_spi(Scripting) import UIKit

@available(iOS 15.0, macOS 12.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
extension Transaction {
    /// Stands in for `Transaction.RefundRequestError`.
    @available(iOS 15.0, macOS 12.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    public enum RefundRequestError: Error {
        /// The transaction already has a refund request.
        case duplicateRequest
        /// The request could not be made.
        case failed
    }

    /// Stands in for `Transaction.RefundRequestStatus`.
    @available(iOS 15.0, macOS 12.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    public enum RefundRequestStatus {
        /// The customer sent the request.
        case success
        /// The customer closed the sheet without sending it.
        case userCancelled
    }

    /// Shows the refund request sheet for this transaction in `scene` (as the static call does).
    @available(iOS 15.0, visionOS 1.0, *)
    @available(watchOS, unavailable)
    @available(tvOS, unavailable)
    @inlinable public func beginRefundRequest(in scene: UIWindowScene) async throws -> Transaction.RefundRequestStatus {
        try await Transaction.beginRefundRequest(for: id, in: scene)
    }

    /// Records the refund request sheet for `transactionID` in `scene`; answers the scripted status or throws the
    /// scripted error.
    @available(iOS 15.0, visionOS 1.0, *)
    @available(watchOS, unavailable)
    @available(tvOS, unavailable)
    @MainActor public static func beginRefundRequest(for transactionID: UInt64, in scene: UIWindowScene) async throws
        -> Transaction.RefundRequestStatus {
        try StoreKitSheetScript.shared.answerRefundRequest(transactionID, scene: scene.testName)
    }
}

@available(iOS 15.0, tvOS 17.0, macOS 12.0, watchOS 10.0, visionOS 1.0, *)
extension Transaction.RefundRequestError: Sendable {}

@available(iOS 15.4, macOS 12.3, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
extension Transaction.RefundRequestError: LocalizedError {
    /// What went wrong.
    public var errorDescription: String? {
        switch self {
        case .duplicateRequest: "A refund was already requested for this purchase."
        case .failed: "The refund request could not be made."
        }
    }

    /// Why.
    public var failureReason: String? { errorDescription }

    /// What to do.
    public var recoverySuggestion: String? { nil }
}

@available(iOS 15.0, macOS 12.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
extension Transaction.RefundRequestError: Equatable {}

@available(iOS 15.0, macOS 12.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
extension Transaction.RefundRequestError: Hashable {}

@available(iOS 15.0, tvOS 17.0, macOS 12.0, watchOS 10.0, visionOS 1.0, *)
extension Transaction.RefundRequestStatus: Sendable {}

@available(iOS 15.0, macOS 12.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
extension Transaction.RefundRequestStatus: Equatable {}

@available(iOS 15.0, macOS 12.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
extension Transaction.RefundRequestStatus: Hashable {}
