// The stand-in's script for what StoreKit presents or pushes outside a call: purchase intents (promoted in-app
// purchases), App Store messages, and the sheets an app shows in a `UIWindowScene` (manage subscriptions, offer code
// redemption, refund requests). Kept apart from ``StoreKitScript`` (purchases, transactions, statuses); tests that
// use it call ``reset()`` too.
import Foundation
import Synchronization
@_spi(Scripting) import UIKit

/// What the sheets answer, what was shown, and the pushed intents and messages. One per process, as StoreKit's
/// state is; suites that script it run `.serialized` and call ``reset()`` first.
@_spi(Scripting) public final class StoreKitSheetScript: Sendable {
    /// The script StoreKit's static calls read.
    public static let shared = StoreKitSheetScript()

    /// The scripted answers.
    public struct Answers: Sendable {
        /// What `beginRefundRequest` answers when it does not throw.
        public var refundStatus: Transaction.RefundRequestStatus = .success
        /// Thrown by `beginRefundRequest` when set (`Transaction.RefundRequestError`, `StoreKitError`).
        public var refundError: (any Error)?
        /// Thrown by `showManageSubscriptions` when set.
        public var manageSubscriptionsError: (any Error)?
        /// Thrown by `presentOfferCodeRedeemSheet` when set.
        public var offerCodeError: (any Error)?
        /// Thrown by `Message.display(in:)` when set.
        public var displayError: (any Error)?
    }

    /// What was shown, in order; each with the scene's `testName`.
    public struct Calls: Sendable {
        /// Each `showManageSubscriptions`: the scene and the group id (nil: all groups).
        public var manageSubscriptions: [(scene: String, groupID: String?)] = []
        /// Each `presentOfferCodeRedeemSheet`: the scene.
        public var offerCodeSheets: [String] = []
        /// Each `beginRefundRequest`: the transaction id and the scene.
        public var refundRequests: [(transactionID: UInt64, scene: String)] = []
        /// Each `Message.display(in:)`: the message's reason and the scene.
        public var displayed: [(reason: Message.Reason, scene: String)] = []
    }

    private struct State: Sendable {
        var answers = Answers()
        var calls = Calls()
        var intentListeners: [UUID: AsyncStream<PurchaseIntent>.Continuation] = [:]
        var messageListeners: [UUID: AsyncStream<Message>.Continuation] = [:]
        /// Pushed while no one listened: delivered to the next listener (as StoreKit delivers at launch).
        var waitingIntents: [PurchaseIntent] = []
        var waitingMessages: [Message] = []
        var nextSerial: UInt64 = 1
    }

    private let state = Mutex(State())

    private init() {}

    /// Forgets every answer, call and waiting push, and ends every intent and message sequence made so far.
    public func reset() {
        let (intents, messages) = state.withLock { state in
            defer { state = State() }
            return (Array(state.intentListeners.values), Array(state.messageListeners.values))
        }
        for listener in intents { listener.finish() }
        for listener in messages { listener.finish() }
    }

    /// Changes the scripted answers.
    public func script(_ change: (inout Answers) -> Void) {
        state.withLock { change(&$0.answers) }
    }

    /// The calls recorded so far.
    public var calls: Calls { state.withLock { $0.calls } }

    /// The customer chose `product` in the App Store: a `PurchaseIntent` to every `PurchaseIntent.intents` being
    /// iterated, or, when none is, to the next one.
    public func pushIntent(_ product: Product, offer: Product.SubscriptionOffer? = nil) {
        let intent = PurchaseIntent(product: product, offer: offer)
        let listeners = state.withLock { state in
            if state.intentListeners.isEmpty { state.waitingIntents.append(intent) }
            return Array(state.intentListeners.values)
        }
        for listener in listeners { listener.yield(intent) }
    }

    /// The App Store has a message for the customer: to every `Message.messages` being iterated, or, when none is,
    /// to the next one. Returns it.
    @discardableResult
    public func pushMessage(_ reason: Message.Reason) -> Message {
        let (message, listeners) = state.withLock { state in
            let message = Message(reason: reason, serial: state.nextSerial)
            state.nextSerial += 1
            if state.messageListeners.isEmpty { state.waitingMessages.append(message) }
            return (message, Array(state.messageListeners.values))
        }
        for listener in listeners { listener.yield(message) }
        return message
    }

    /// How many `PurchaseIntent.intents` and `Message.messages` sequences are being iterated.
    public var listeners: (intents: Int, messages: Int) {
        state.withLock { ($0.intentListeners.count, $0.messageListeners.count) }
    }

    /// A window scene named `testName` (recorded with each call shown in it). Here rather than in a test file:
    /// swift-testing looks for a `_Testing_UIKit` overlay in any file importing both Testing and UIKit, and Linux
    /// has none.
    @MainActor public static func scene(_ testName: String) -> UIWindowScene { UIWindowScene(testName: testName) }

    // MARK: answering StoreKit's calls

    func intentStream() -> AsyncStream<PurchaseIntent> {
        stream(listeners: \.intentListeners, waiting: \.waitingIntents)
    }

    func messageStream() -> AsyncStream<Message> {
        stream(listeners: \.messageListeners, waiting: \.waitingMessages)
    }

    /// A new listener: first what waited for one, then each push.
    private func stream<Element: Sendable>(
        listeners: WritableKeyPath<State, [UUID: AsyncStream<Element>.Continuation]> & Sendable,
        waiting: WritableKeyPath<State, [Element]>
    ) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self)
        let key = UUID()
        let waited = state.withLock { state in
            state[keyPath: listeners][key] = continuation
            defer { state[keyPath: waiting] = [] }
            return state[keyPath: waiting]
        }
        for element in waited { continuation.yield(element) }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0[keyPath: listeners].removeValue(forKey: key) }
        }
        return stream
    }

    func answerManageSubscriptions(scene: String, groupID: String?) throws {
        try state.withLock { state in
            state.calls.manageSubscriptions.append((scene, groupID))
            if let error = state.answers.manageSubscriptionsError { throw error }
        }
    }

    func answerOfferCodeSheet(scene: String) throws {
        try state.withLock { state in
            state.calls.offerCodeSheets.append(scene)
            if let error = state.answers.offerCodeError { throw error }
        }
    }

    func answerRefundRequest(_ id: UInt64, scene: String) throws -> Transaction.RefundRequestStatus {
        try state.withLock { state in
            state.calls.refundRequests.append((id, scene))
            if let error = state.answers.refundError { throw error }
            return state.answers.refundStatus
        }
    }

    func answerDisplay(_ message: Message, scene: String) throws {
        try state.withLock { state in
            state.calls.displayed.append((message.reason, scene))
            if let error = state.answers.displayError { throw error }
        }
    }
}
