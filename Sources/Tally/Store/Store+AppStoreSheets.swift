import Foundation
#if canImport(UIKit) && !os(tvOS) && !os(watchOS)
import UIKit
#endif

extension Store {
    /// Purchases the customer started in the App Store (promoted in-app purchases; StoreKit's
    /// `PurchaseIntent.intents`, iOS 16.4+ / macOS 14.4+; the stream ends at once elsewhere), as they arrive. Answer
    /// each by buying: `try await store.purchase(intent.productId)`. Listen once, from launch (an app opened from a
    /// promotion gets the intent waiting for it); each call listens to the backend anew.
    public nonisolated func promotedPurchases() -> AsyncStream<PromotedPurchase> {
        backend.purchaseIntents()
    }

    /// The App Store's messages for the customer (StoreKit's `Message.messages`, iOS 16+ and visionOS; the stream
    /// ends at once elsewhere): billing issues, price increases to consent to. While the app listens, the App Store
    /// shows none on its own: show each with ``display(_:in:)`` when it suits, or defer it. Listen once; each call
    /// listens to the backend anew.
    public nonisolated func storeMessages() -> AsyncStream<StoreMessage> {
        backend.storeMessages()
    }
}

#if canImport(UIKit) && !os(tvOS) && !os(watchOS)
extension Store {
    /// Shows the App Store's sheet where the customer manages (cancels, changes) subscriptions, in `scene`; with
    /// `subscriptionGroupId`, that group's alone (iOS 17+; before, all groups). A change the customer makes there
    /// arrives as a transaction update or renewal info.
    /// - Throws: ``StoreError`` when the sheet cannot be shown.
    @available(iOS 15.0, visionOS 1.0, *)
    @available(macOS, unavailable)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    @MainActor public func showManageSubscriptions(in scene: UIWindowScene, subscriptionGroupId: String? = nil)
        async throws(StoreError) {
        do { try await backend.showManageSubscriptions(in: scene, subscriptionGroupId: subscriptionGroupId) } catch {
            throw Self.sheetError(error, doing: "manage subscriptions")
        }
    }

    /// Shows the App Store's sheet where the customer redeems an offer code, in `scene`. A redeemed code arrives as
    /// a transaction update (``StoreEvent/purchased(_:context:)``), not as this call's answer.
    /// - Throws: ``StoreError`` when the sheet cannot be shown.
    @available(iOS 16.0, visionOS 1.0, *)
    @available(macOS, unavailable)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    @MainActor public func presentOfferCodeRedeemSheet(in scene: UIWindowScene) async throws(StoreError) {
        do { try await backend.presentOfferCodeRedeemSheet(in: scene) } catch {
            throw Self.sheetError(error, doing: "offer code redemption")
        }
    }

    /// Shows the App Store's refund request sheet for `transactionId` in `scene`. A granted refund arrives later as
    /// a revoked transaction (``StoreEvent/revoked(_:)``).
    /// - Throws: ``StoreError`` when the sheet cannot be shown or the request fails.
    @available(iOS 15.0, visionOS 1.0, *)
    @available(macOS, unavailable)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    @MainActor public func beginRefundRequest(for transactionId: String, in scene: UIWindowScene)
        async throws(StoreError) -> RefundRequestOutcome {
        do { return try await backend.beginRefundRequest(transactionId: transactionId, in: scene) } catch {
            throw Self.sheetError(error, doing: "refund request for \(transactionId)")
        }
    }

    /// Shows `message` (one ``storeMessages()`` delivered) in `scene`.
    /// - Throws: ``StoreError`` when it cannot be shown (a message this store did not deliver, or shown already).
    @available(iOS 16.0, visionOS 1.0, *)
    @available(macOS, unavailable)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    @MainActor public func display(_ message: StoreMessage, in scene: UIWindowScene) async throws(StoreError) {
        do { try await backend.display(message, in: scene) } catch {
            throw Self.sheetError(error, doing: "showing message \(message.id)")
        }
    }

    /// The backend's error as the engine's: a ``StoreError`` as it is, any other as ``StoreError/Code/backend``.
    private nonisolated static func sheetError(_ error: any Error, doing action: String) -> StoreError {
        error as? StoreError ?? StoreError(.backend, "\(action) failed: \(error)")
    }
}
#endif
