import Foundation
import Synchronization

/// The stand-in's script: what each StoreKit call answers, and what was called. One per process, as StoreKit's
/// state is; a test suite that scripts it runs its tests one at a time (`.serialized`) and calls ``reset()`` first.
@_spi(Scripting) public final class StoreKitScript: Sendable {
    /// The script StoreKit's static calls read.
    public static let shared = StoreKitScript()

    /// What a purchase answers: a result, or an error thrown (`StoreKitError`, `Product.PurchaseError`).
    public typealias PurchaseHandler = @Sendable (Product, Set<Product.PurchaseOption>) throws -> Product.PurchaseResult

    /// The scripted answers.
    public struct Answers: Sendable {
        /// What `Product.products(for:)` knows.
        public var products: [Product] = []
        /// Thrown by `Product.products(for:)` when set.
        public var productsError: (any Error)?
        /// Answers each `purchase(options:)`; none scripted throws `StoreKitError.unknown`.
        public var purchase: PurchaseHandler?
        /// Thrown by the next purchase when set (after the call is recorded), whatever ``purchase`` would answer:
        /// `Product.PurchaseError.invalidOfferSignature` and the other offer refusals. Cleared once thrown.
        public var purchaseError: (any Error)?
        /// `Transaction.unfinished`; `finish()` removes from it.
        public var unfinished: [VerificationResult<Transaction>] = []
        /// `Transaction.currentEntitlements`.
        public var currentEntitlements: [VerificationResult<Transaction>] = []
        /// `Transaction.all`.
        public var all: [VerificationResult<Transaction>] = []
        /// `Product.SubscriptionInfo.status(for:)`, by group id.
        public var statuses: [String: [Product.SubscriptionInfo.Status]] = [:]
        /// Thrown by `status(for:)` when set.
        public var statusError: (any Error)?
        /// Groups whose intro offer the customer can no longer get.
        public var introOfferUsedGroups: Set<String> = []
        /// `AppStore.canMakePayments`.
        public var canMakePayments = true
        /// `Storefront.current`.
        public var storefront: Storefront? = Storefront(countryCode: "USA", id: "143441")
        /// Thrown by `AppStore.sync()` when set.
        public var syncError: (any Error)?
    }

    /// What was called, in order.
    public struct Calls: Sendable {
        /// The ids of each `Product.products(for:)` call.
        public var productRequests: [[String]] = []
        /// Each purchase: the product id and the options.
        public var purchases: [(productID: String, options: Set<Product.PurchaseOption>)] = []
        /// The scenes purchases were confirmed in (`purchase(confirmIn:options:)`), by their type's name.
        public var confirmedIn: [String] = []
        /// The ids of the transactions `finish()` was called on, in order.
        public var finished: [UInt64] = []
        /// How many times `AppStore.sync()` was called.
        public var syncs = 0
        /// The group ids of each `status(for:)` call.
        public var statusRequests: [String] = []
    }

    private struct State: Sendable {
        var answers = Answers()
        var calls = Calls()
        var listeners: [UUID: AsyncStream<VerificationResult<Transaction>>.Continuation] = [:]
        var statusListeners: [UUID: AsyncStream<Product.SubscriptionInfo.Status>.Continuation] = [:]
    }

    private let state = Mutex(State())

    private init() {}

    /// Forgets every answer and call, and ends every `Transaction.updates` and `Status.updates` sequence made so far.
    public func reset() {
        let (listeners, statusListeners) = state.withLock { state in
            defer { state = State() }
            return (Array(state.listeners.values), Array(state.statusListeners.values))
        }
        for listener in listeners { listener.finish() }
        for listener in statusListeners { listener.finish() }
    }

    /// Changes the scripted answers.
    public func script(_ change: (inout Answers) -> Void) {
        state.withLock { change(&$0.answers) }
    }

    /// The calls recorded so far.
    public var calls: Calls { state.withLock { $0.calls } }

    /// The scripted answers now.
    public var answers: Answers { state.withLock { $0.answers } }

    /// Sends `result` to every `Transaction.updates` sequence being iterated (made before this call).
    public func pushUpdate(_ result: VerificationResult<Transaction>) {
        let listeners = state.withLock { Array($0.listeners.values) }
        for listener in listeners { listener.yield(result) }
    }

    /// How many `Transaction.updates` sequences are open.
    public var updateListeners: Int { state.withLock { $0.listeners.count } }

    /// Sends `status` to every `Product.SubscriptionInfo.Status.updates` sequence being iterated (made before this
    /// call), as StoreKit does when a subscription's status changes.
    public func pushStatusUpdate(_ status: Product.SubscriptionInfo.Status) {
        let listeners = state.withLock { Array($0.statusListeners.values) }
        for listener in listeners { listener.yield(status) }
    }

    /// How many `Product.SubscriptionInfo.Status.updates` sequences are open.
    public var statusUpdateListeners: Int { state.withLock { $0.statusListeners.count } }

    // MARK: answering StoreKit's calls

    func answerProducts(_ ids: [String]) throws -> [Product] {
        try state.withLock { state in
            state.calls.productRequests.append(ids)
            if let error = state.answers.productsError { throw error }
            let wanted = Set(ids)
            return state.answers.products.filter { wanted.contains($0.id) }
        }
    }

    func answerPurchase(_ product: Product, options: Set<Product.PurchaseOption>) throws -> Product.PurchaseResult {
        let (handler, error) = state.withLock { state in
            state.calls.purchases.append((product.id, options))
            defer { state.answers.purchaseError = nil }
            return (state.answers.purchase, state.answers.purchaseError)
        }
        if let error { throw error }
        guard let handler else { throw StoreKitError.unknown }
        return try handler(product, options)
    }

    func recordConfirmation(in scene: some AnyObject) {
        let name = String(describing: type(of: scene))
        state.withLock { $0.calls.confirmedIn.append(name) }
    }

    func recordFinish(_ transaction: Transaction) {
        state.withLock { state in
            state.calls.finished.append(transaction.id)
            state.answers.unfinished.removeAll { $0.unsafePayloadValue.id == transaction.id }
        }
    }

    func scripted(_ list: KeyPath<Answers, [VerificationResult<Transaction>]>) -> [VerificationResult<Transaction>] {
        state.withLock { $0.answers[keyPath: list] }
    }

    func answerStatus(_ groupID: String) throws -> [Product.SubscriptionInfo.Status] {
        try state.withLock { state in
            state.calls.statusRequests.append(groupID)
            if let error = state.answers.statusError { throw error }
            return state.answers.statuses[groupID] ?? []
        }
    }

    func introOfferEligibility(_ groupID: String) -> Bool {
        state.withLock { !$0.answers.introOfferUsedGroups.contains(groupID) }
    }

    var canMakePayments: Bool { state.withLock { $0.answers.canMakePayments } }

    var storefront: Storefront? { state.withLock { $0.answers.storefront } }

    func answerSync() throws {
        try state.withLock { state in
            state.calls.syncs += 1
            if let error = state.answers.syncError { throw error }
        }
    }

    /// A new `Transaction.updates` sequence. As Apple documents, an app's updates listener first receives each
    /// unfinished transaction once, at launch: the sequence starts with `Transaction.unfinished` as it is when the
    /// sequence is made, then carries what ``pushUpdate(_:)`` sends.
    func updatesSequence() -> Transaction.Transactions {
        let (stream, continuation) = AsyncStream.makeStream(of: VerificationResult<Transaction>.self)
        let key = UUID()
        state.withLock { state in
            for result in state.answers.unfinished { continuation.yield(result) }
            state.listeners[key] = continuation
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.listeners.removeValue(forKey: key) }
        }
        return Transaction.Transactions(stream)
    }

    /// A new `Product.SubscriptionInfo.Status.updates` sequence: what ``pushStatusUpdate(_:)`` sends from now on.
    func statusUpdatesSequence() -> Product.SubscriptionInfo.Status.Statuses {
        let (stream, continuation) = AsyncStream.makeStream(of: Product.SubscriptionInfo.Status.self)
        let key = UUID()
        state.withLock { $0.statusListeners[key] = continuation }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.statusListeners.removeValue(forKey: key) }
        }
        return Product.SubscriptionInfo.Status.Statuses(stream: stream)
    }
}
