// StoreKit's refund request, as Apple declares it (../shared/docs/storekit-interface-ios26.txt: Transaction's
// RefundRequestError and RefundRequestStatus, and the SwiftUI modifier `refundRequestSheet`, which on Apple
// platforms comes with StoreKit when a file also imports SwiftUI). The sheet does nothing here: it type-checks.
import Foundation
import SwiftUI

@available(iOS 15.0, macOS 12.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
extension Transaction {
    /// An error that indicates a refund request failed.
    @available(iOS 15.0, macOS 12.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    public enum RefundRequestError: Error {
        /// A refund request for this transaction is already in progress.
        case duplicateRequest
        /// The refund request failed.
        case failed
    }

    /// The status of a refund request.
    @available(iOS 15.0, macOS 12.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    public enum RefundRequestStatus {
        /// The customer submitted the request.
        case success
        /// The customer cancelled the request.
        case userCancelled
    }
}

@available(iOS 15.0, macOS 12.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
extension Transaction.RefundRequestError: Sendable {}

@available(iOS 15.4, macOS 12.3, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
extension Transaction.RefundRequestError: LocalizedError {
    /// What went wrong.
    public var errorDescription: String? {
        switch self {
        case .duplicateRequest: "A refund request for this purchase is already in progress."
        case .failed: "The refund request failed."
        }
    }

    /// Why.
    public var failureReason: String? { nil }

    /// What to do.
    public var recoverySuggestion: String? { nil }
}

@available(iOS 15.0, macOS 12.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
extension Transaction.RefundRequestError: Equatable {}

@available(iOS 15.0, macOS 12.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
extension Transaction.RefundRequestError: Hashable {}

@available(iOS 15.0, macOS 12.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
extension Transaction.RefundRequestStatus: Sendable {}

@available(iOS 15.0, macOS 12.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
extension Transaction.RefundRequestStatus: Equatable {}

@available(iOS 15.0, macOS 12.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
extension Transaction.RefundRequestStatus: Hashable {}

@available(iOS 15.0, macOS 14.0, visionOS 1.0, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
extension View {
    /// Presents the App Store's refund request sheet for a transaction while `isPresented` is true.
    @preconcurrency nonisolated public func refundRequestSheet(
        for transactionID: Transaction.ID, isPresented: Binding<Bool>,
        onDismiss: (@MainActor (Result<Transaction.RefundRequestStatus, Transaction.RefundRequestError>) -> ())? = nil
    ) -> some View {
        self
    }
}
