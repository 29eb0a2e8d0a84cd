// StoreKit's SwiftUI refund request sheet, as Apple declares it (../shared/docs/storekit-interface-ios26.txt: the
// modifier `refundRequestSheet`, which on Apple platforms comes with StoreKit when a file also imports SwiftUI;
// Transaction's RefundRequestError and RefundRequestStatus are in Transaction+RefundRequest.swift). The sheet does
// nothing here: it type-checks.
import Foundation
import SwiftUI

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
