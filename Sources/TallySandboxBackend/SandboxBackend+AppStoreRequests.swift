import Foundation
import Tally
import TallyCore
import TallySandbox
#if canImport(UIKit) && !os(tvOS) && !os(watchOS)
import UIKit
#endif

/// What the App Store starts or shows outside a purchase call, played by the sandbox: purchase intents
/// (`tally sandbox promote`) and messages (`tally sandbox message`) taken from the directory once each, and the
/// sheets recorded in it (`tally sandbox sheets`; a refund request as `tally sandbox refund-request` shows it).
extension SandboxBackend {
    /// The account's purchase intents, each taken from the directory once (by whichever listener reads it first).
    public nonisolated func purchaseIntents() -> AsyncStream<PromotedPurchase> {
        take { sandbox, account in sandbox.purchaseIntents(account: account).contains { $0.deliveredDate == nil } }
            take: { sandbox, account in
                sandbox.takePurchaseIntents(account: account).map { PromotedPurchase(productId: $0.productId) }
            }
    }

    /// The account's App Store messages, each taken from the directory once.
    public nonisolated func storeMessages() -> AsyncStream<StoreMessage> {
        take { sandbox, account in sandbox.messages(account: account).contains { $0.deliveredDate == nil } }
            take: { sandbox, account in
                sandbox.takeMessages(account: account).map { message in
                    StoreMessage(id: message.id, reason: message.reason == .billingIssue ? .billingIssue : .priceIncrease)
                }
            }
    }

    /// Looks at the store's change counter every ``pollInterval`` and, when it moved and `waiting` sees something
    /// to take, takes it in one change (so a look that finds nothing writes nothing); a failed take is tried again.
    private nonisolated func take<Element: Sendable>(
        _ waiting: @escaping @Sendable (Sandbox, String) -> Bool,
        take: @escaping @Sendable (inout Sandbox, String) -> [Element]
    ) -> AsyncStream<Element> {
        AsyncStream { continuation in
            let task = Task { [store, account, pollInterval] in
                var lastRead: Int64?
                while !Task.isCancelled {
                    let generation = store.stamp()?.generation
                    if generation == nil || generation != lastRead, let sandbox = try? store.read(account: account) {
                        lastRead = generation
                        if waiting(sandbox, account) {
                            if let taken = try? store.update(account: account, { take(&$0, account) }) {
                                for element in taken { continuation.yield(element) }
                            } else {
                                lastRead = nil  // the take failed (the directory busy, say): try again next tick
                            }
                        }
                    }
                    try? await Task.sleep(nanoseconds: UInt64(pollInterval * 1e9))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Runs `body` on the account's sandbox under the directory's lock, as the engine's error.
    func record<T: Sendable>(_ body: (inout Sandbox) throws(SandboxError) -> T) throws(StoreError) -> T {
        do { return try store.answer(account: account, body) } catch let error as SandboxError {
            throw Self.storeError(error)
        } catch {
            throw StoreError(.backend, "\(error)")
        }
    }
}

#if canImport(UIKit) && !os(tvOS) && !os(watchOS)
extension SandboxBackend {
    /// Recorded in the sandbox as a `manage-subscriptions` sheet call.
    @MainActor public func showManageSubscriptions(in scene: UIWindowScene, subscriptionGroupId: String?) async throws {
        try await recordSheet(.manageSubscriptions, subscriptionGroupId: subscriptionGroupId)
    }

    /// Recorded in the sandbox as an `offer-code-redeem` sheet call.
    @MainActor public func presentOfferCodeRedeemSheet(in scene: UIWindowScene) async throws {
        try await recordSheet(.offerCodeRedeem, subscriptionGroupId: nil)
    }

    /// The customer sends the request: an open refund request in the sandbox (reason OTHER), which
    /// `tally sandbox refund-request TX` lists and `--decide` ends. One already open, or a transaction refunded
    /// already, is ``RefundRequestOutcome/alreadyRequested``.
    @MainActor public func beginRefundRequest(transactionId: String, in scene: UIWindowScene) async throws
        -> RefundRequestOutcome {
        try await requestRefund(transactionId)
    }

    /// Marks the message shown in the sandbox (`tally sandbox message` lists it as displayed).
    @MainActor public func display(_ message: StoreMessage, in scene: UIWindowScene) async throws {
        try await displayMessage(message.id)
    }
}
#endif

extension SandboxBackend {
    private func recordSheet(_ sheet: SandboxSheetCall.Sheet, subscriptionGroupId: String?) throws(StoreError) {
        let (account, device) = (account, device)
        _ = try record { sandbox throws(SandboxError) in
            sandbox.recordSheet(sheet, account: account, device: device, subscriptionGroupId: subscriptionGroupId)
        }
    }

    private func requestRefund(_ transactionId: String) throws(StoreError) -> RefundRequestOutcome {
        let account = account
        do {
            _ = try store.answer(account: account) { sandbox throws(SandboxError) in
                guard sandbox.transactions(account: account).contains(where: { $0.transactionId == transactionId })
                else { throw SandboxError(.unknownTransaction, "refund request: no transaction '\(transactionId)' in account '\(account)'") }
                return try sandbox.requestRefund(transactionId: transactionId)
            }
            return .requested
        } catch let error as SandboxError {
            switch error.code {
            case .alreadyResolved: return .alreadyRequested
            case .unknownTransaction, .invalidRequest: throw StoreError(.invalidValue, error.message)
            default: throw Self.storeError(error)
            }
        } catch {
            throw StoreError(.backend, "refund request for \(transactionId): \(error)")
        }
    }

    private func displayMessage(_ id: String) throws(StoreError) {
        let account = account
        do {
            _ = try store.answer(account: account) { sandbox throws(SandboxError) in
                try sandbox.displayMessage(id, account: account)
            }
        } catch let error as SandboxError {
            throw StoreError(.invalidValue, error.message)
        } catch {
            throw StoreError(.backend, "showing message \(id): \(error)")
        }
    }
}
