#if canImport(StoreKit)
import Foundation
import StoreKit
import Tally
#if canImport(UIKit) && !os(tvOS) && !os(watchOS)
import UIKit
#endif

/// StoreKit's `Message` values the backend delivered, by the id it gave each (StoreKit's messages have none the
/// engine can hold): ``StoreKitBackend/display(_:in:)`` needs the value back. Kept as `any Sendable` because
/// `Message` exists only from iOS 16 and the backend's floor is iOS 15.
actor StoreKitMessageShelf {
    private var messages: [String: any Sendable] = [:]

    /// Keeps `message` under a new id.
    func keep(_ message: any Sendable) -> String {
        let id = UUID().uuidString.lowercased()
        messages[id] = message
        return id
    }

    /// The message kept under `id`, removed (a message is shown once).
    func take(_ id: String) -> (any Sendable)? {
        messages.removeValue(forKey: id)
    }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension StoreKitBackend {
    /// `PurchaseIntent.intents` (iOS 16.4+ / macOS 14.4+; ends at once elsewhere): each intent's product id and,
    /// on iOS 18 / macOS 15, its offer id. The intent's product is kept, so buying it asks StoreKit for nothing more.
    public nonisolated func purchaseIntents() -> AsyncStream<PromotedPurchase> {
#if os(iOS) || os(macOS) || os(Linux)
        guard #available(iOS 16.4, macOS 14.4, *) else { return AsyncStream { $0.finish() } }
        return AsyncStream(PromotedPurchase.self) { continuation in
            let task = Task {
                for await intent in PurchaseIntent.intents {
                    await self.keep(intent.product)
                    var offerId: String?
                    if #available(iOS 18.0, macOS 15.0, *) { offerId = intent.offer?.id }
                    continuation.yield(PromotedPurchase(productId: intent.product.id, offerId: offerId))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
#else
        return AsyncStream { $0.finish() }
#endif
    }

    /// `Message.messages` (iOS 16+; ends at once elsewhere), each kept for ``display(_:in:)``.
    public nonisolated func storeMessages() -> AsyncStream<StoreMessage> {
#if canImport(UIKit) && !os(tvOS) && !os(watchOS)
        guard #available(iOS 16.0, *) else { return AsyncStream { $0.finish() } }
        return AsyncStream(StoreMessage.self) { continuation in
            let task = Task { [messageShelf] in
                for await message in StoreKit.Message.messages {
                    let id = await messageShelf.keep(message)
                    continuation.yield(StoreMessage(id: id, reason: Self.reason(message.reason)))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
#else
        return AsyncStream { $0.finish() }
#endif
    }

    private func keep(_ product: StoreKit.Product) {
        known[product.id] = product
    }
}

#if canImport(UIKit) && !os(tvOS) && !os(watchOS)
@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension StoreKitBackend {
    /// `AppStore.showManageSubscriptions(in:)`, or with a group `showManageSubscriptions(in:subscriptionGroupID:)`
    /// on iOS 17+ (before, every group's sheet).
    @MainActor public func showManageSubscriptions(in scene: UIWindowScene, subscriptionGroupId: String?) async throws {
        do {
            if let subscriptionGroupId, #available(iOS 17.0, *) {
                try await AppStore.showManageSubscriptions(in: scene, subscriptionGroupID: subscriptionGroupId)
            } else {
                try await AppStore.showManageSubscriptions(in: scene)
            }
        } catch {
            throw Self.storeError(error, doing: "manage subscriptions")
        }
    }

    /// `AppStore.presentOfferCodeRedeemSheet(in:)` (iOS 16+; earlier it throws ``StoreError/Code/backend``).
    @MainActor public func presentOfferCodeRedeemSheet(in scene: UIWindowScene) async throws {
        guard #available(iOS 16.0, *) else {
            throw StoreError(.backend, "offer code redemption: StoreKit's sheet needs iOS 16")
        }
        do { try await AppStore.presentOfferCodeRedeemSheet(in: scene) } catch {
            throw Self.storeError(error, doing: "offer code redemption")
        }
    }

    /// `Transaction.beginRefundRequest(for:in:)`; a `duplicateRequest` is ``RefundRequestOutcome/alreadyRequested``.
    @MainActor public func beginRefundRequest(transactionId: String, in scene: UIWindowScene) async throws
        -> RefundRequestOutcome {
        let action = "refund request for \(transactionId)"
        guard let id = UInt64(transactionId) else {
            throw StoreError(.invalidValue, "\(action): not a StoreKit transaction id (a decimal number)")
        }
        let status: StoreKit.Transaction.RefundRequestStatus
        do { status = try await StoreKit.Transaction.beginRefundRequest(for: id, in: scene) } catch {
            switch error as? StoreKit.Transaction.RefundRequestError {
            case .duplicateRequest: return .alreadyRequested
            case .failed: throw StoreError(.backend, "\(action): the App Store could not take the request")
            case nil: throw Self.storeError(error, doing: action)
            }
        }
        switch status {
        case .success: return .requested
        case .userCancelled: return .cancelled
        @unknown default:
            throw StoreError(.backend, "\(action): StoreKit answered a status this version of Tally does not know")
        }
    }

    /// `Message.display(in:)` on the message delivered under `message.id` (iOS 16+).
    @MainActor public func display(_ message: StoreMessage, in scene: UIWindowScene) async throws {
        guard #available(iOS 16.0, *) else { throw StoreError(.backend, "App Store messages need iOS 16") }
        guard let kept = await messageShelf.take(message.id) as? StoreKit.Message else {
            throw StoreError(.invalidValue, "message \(message.id): not one this backend delivered, or shown already")
        }
        do { try kept.display(in: scene) } catch {
            throw Self.storeError(error, doing: "showing message \(message.id)")
        }
    }

    @available(iOS 16.0, *)
    nonisolated static func reason(_ reason: StoreKit.Message.Reason) -> StoreMessage.Reason {
        if #available(iOS 16.4, *), reason == .billingIssue { return .billingIssue }
        if #available(iOS 18.0, *), reason == .winBackOffer { return .winBackOffer }
        return reason == .priceIncreaseConsent ? .priceIncrease : .generic
    }
}
#endif
#endif
