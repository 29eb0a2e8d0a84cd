import Foundation
#if canImport(UIKit) && !os(tvOS) && !os(watchOS)
import UIKit
#endif

extension StoreBackend {
    /// A stream that ends at once: for backends without promoted purchases.
    public func purchaseIntents() -> AsyncStream<PromotedPurchase> { AsyncStream { $0.finish() } }

    /// A stream that ends at once: for backends without App Store messages.
    public func storeMessages() -> AsyncStream<StoreMessage> { AsyncStream { $0.finish() } }
}

#if canImport(UIKit) && !os(tvOS) && !os(watchOS)
extension StoreBackend {
    /// Refuses: this backend has no manage-subscriptions sheet.
    @MainActor public func showManageSubscriptions(in scene: UIWindowScene, subscriptionGroupId: String?) async throws {
        throw StoreError(.backend, "manage subscriptions: \(type(of: self)) has no App Store sheet to show")
    }

    /// Refuses: this backend has no offer-code sheet.
    @MainActor public func presentOfferCodeRedeemSheet(in scene: UIWindowScene) async throws {
        throw StoreError(.backend, "offer code redemption: \(type(of: self)) has no App Store sheet to show")
    }

    /// Refuses: this backend takes no refund requests.
    @MainActor public func beginRefundRequest(transactionId: String, in scene: UIWindowScene) async throws
        -> RefundRequestOutcome {
        throw StoreError(.backend, "refund request for \(transactionId): \(type(of: self)) takes no refund requests")
    }

    /// Refuses: this backend delivers no messages.
    @MainActor public func display(_ message: StoreMessage, in scene: UIWindowScene) async throws {
        throw StoreError(.backend, "message \(message.id): \(type(of: self)) has no App Store messages")
    }
}
#endif
