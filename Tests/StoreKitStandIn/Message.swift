import Foundation
@_spi(Scripting) import UIKit

/// Stands in for `StoreKit.Message`: a message the App Store has for the customer (a billing issue, a price
/// increase to consent to). An app listening to ``messages`` defers them all and shows each with
/// ``display(in:)`` when it suits. Tests push one with ``StoreKitSheetScript/pushMessage(_:)``.
@available(iOS 16.0, visionOS 1.0, *)
@available(macOS, unavailable)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
public struct Message: Sendable {
    /// Why the App Store has the message.
    public let reason: Message.Reason
    /// Which pushed message this is (the stand-in's identity for `==`).
    let serial: UInt64

    init(reason: Message.Reason, serial: UInt64) {
        self.reason = reason
        self.serial = serial
    }

    /// Stands in for `Message.Reason`.
    @available(iOS 16.0, visionOS 1.0, *)
    @available(macOS, unavailable)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    public struct Reason: RawRepresentable, Equatable, Hashable, Sendable {
        /// The raw value.
        public let rawValue: Int

        /// A reason from its raw value.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// A message of no particular kind.
        public static let generic = Message.Reason(rawValue: 0)

        /// The customer must consent to a subscription's price increase.
        public static let priceIncreaseConsent = Message.Reason(rawValue: 1)

        /// A billing problem (the payment method failed).
        @available(iOS 16.4, visionOS 1.0, *)
        @available(macOS, unavailable)
        @available(tvOS, unavailable)
        @available(watchOS, unavailable)
        public static let billingIssue = Message.Reason(rawValue: 2)

        /// A win-back offer.
        @available(iOS 18.0, visionOS 2.0, *)
        @available(macOS, unavailable)
        @available(tvOS, unavailable)
        @available(watchOS, unavailable)
        public static let winBackOffer = Message.Reason(rawValue: 3)

        /// The raw value's type.
        @available(iOS 16.0, visionOS 1.0, *)
        @available(tvOS, unavailable)
        @available(watchOS, unavailable)
        @available(macOS, unavailable)
        public typealias RawValue = Int
    }
}

@available(iOS 16.0, visionOS 1.0, *)
@available(macOS, unavailable)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
extension Message: Equatable {
    /// The same pushed message.
    public static func == (lhs: Message, rhs: Message) -> Bool { lhs.serial == rhs.serial && lhs.reason == rhs.reason }
}

@available(iOS 16.0, visionOS 1.0, *)
@available(macOS, unavailable)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
extension Message: Hashable {
    /// Hashes the message's identity.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(serial)
        hasher.combine(reason)
    }
}

@available(iOS 16.0, visionOS 1.0, *)
@available(macOS, unavailable)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
extension Message {
    /// Records the display in `scene`; throws the scripted error, if any.
    @MainActor public func display(in scene: UIWindowScene) throws {
        try StoreKitSheetScript.shared.answerDisplay(self, scene: scene.testName)
    }
}

@available(iOS 16.0, visionOS 1.0, *)
@available(macOS, unavailable)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
extension Message {
    /// Stands in for `Message.Messages`: the messages as they arrive (ones waiting from before the first iteration
    /// are delivered to it).
    public struct Messages: AsyncSequence, Sendable {
        /// A message.
        public typealias Element = Message

        let stream: AsyncStream<Message>

        /// Iterates the messages.
        public struct AsyncIterator: AsyncIteratorProtocol {
            var base: AsyncStream<Message>.AsyncIterator

            /// The next message; nil when the script is reset.
            public mutating func next() async -> Message.Messages.Element? { await base.next() }

            /// A message.
            @available(iOS 16.0, visionOS 1.0, *)
            @available(tvOS, unavailable)
            @available(watchOS, unavailable)
            @available(macOS, unavailable)
            public typealias Element = Message.Messages.Element
        }

        /// Starts iterating.
        public func makeAsyncIterator() -> Message.Messages.AsyncIterator {
            AsyncIterator(base: stream.makeAsyncIterator())
        }
    }

    /// The App Store's messages, from now on (and the ones waiting for a first listener).
    public static var messages: Message.Messages { Messages(stream: StoreKitSheetScript.shared.messageStream()) }
}

@available(iOS 16.0, visionOS 1.0, *)
@available(macOS, unavailable)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
extension Message.Reason {
    /// A description of the reason.
    public var localizedDescription: String {
        switch rawValue {
        case 1: "Price increase consent"
        case 2: "Billing issue"
        case 3: "Win-back offer"
        default: "Generic"
        }
    }
}
