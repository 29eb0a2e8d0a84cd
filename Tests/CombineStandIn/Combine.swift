// Test support, Linux only: the part of Apple's Combine that `ObservableStoreModel` (Sources/Tally/UI) uses, with
// Apple's declarations, so the `#if canImport(Combine)` model compiles and its tests run on Linux. Declared in
// Package.swift only `#if os(Linux)`, so on Apple platforms `import Combine` is always Apple's framework.
//
// A minimal working implementation: publishers deliver every value to every subscriber at once (demand is not
// counted: every subscriber here, `sink` included, asks for `.unlimited`), and nothing is thread-safe (Apple's
// Combine is not either; the models using it are `@MainActor`).

/// Declares that a type can transmit a sequence of values over time.
public protocol Publisher<Output, Failure> {
    /// The kind of values published by this publisher.
    associatedtype Output
    /// The kind of errors this publisher might publish.
    associatedtype Failure: Error

    /// Attaches the specified subscriber to this publisher.
    func receive<S>(subscriber: S) where S: Subscriber, Self.Failure == S.Failure, Self.Output == S.Input
}

/// A protocol that declares a type that can receive input from a publisher.
public protocol Subscriber<Input, Failure>: CustomCombineIdentifierConvertible {
    /// The kind of values this subscriber receives.
    associatedtype Input
    /// The kind of errors this subscriber might receive.
    associatedtype Failure: Error

    /// Tells the subscriber that it has successfully subscribed to the publisher and may request items.
    func receive(subscription: any Subscription)
    /// Tells the subscriber that the publisher has produced an element.
    func receive(_ input: Self.Input) -> Subscribers.Demand
    /// Tells the subscriber that the publisher has completed publishing, either normally or with an error.
    func receive(completion: Subscribers.Completion<Self.Failure>)
}

/// A protocol representing the connection of a subscriber to a publisher.
public protocol Subscription: Cancellable, CustomCombineIdentifierConvertible {
    /// Tells a publisher that it may send more values to the subscriber.
    func request(_ demand: Subscribers.Demand)
}

/// A protocol indicating that an activity or action supports cancellation.
public protocol Cancellable {
    /// Cancel the activity.
    func cancel()
}

/// A protocol for uniquely identifying publisher streams.
public protocol CustomCombineIdentifierConvertible {
    /// A unique identifier for identifying publisher streams.
    var combineIdentifier: CombineIdentifier { get }
}

extension CustomCombineIdentifierConvertible where Self: AnyObject {
    /// The object's identity.
    public var combineIdentifier: CombineIdentifier { CombineIdentifier(self) }
}

/// A unique identifier for identifying publisher streams.
public struct CombineIdentifier: Hashable, CustomStringConvertible {
    private let value: ObjectIdentifier

    /// Creates a unique Combine identifier.
    public init() { value = ObjectIdentifier(Unique()) }

    /// Creates a Combine identifier, using the bit pattern of the provided object.
    public init(_ obj: AnyObject) { value = ObjectIdentifier(obj) }

    /// A textual representation of this instance.
    public var description: String { "\(value)" }

    private final class Unique {}
}

/// A namespace for types that serve as subscribers.
public enum Subscribers {}

extension Subscribers {
    /// A signal that a publisher doesn't produce additional elements, either due to normal completion or an error.
    public enum Completion<Failure> where Failure: Error {
        /// The publisher finished normally.
        case finished
        /// The publisher stopped publishing due to the indicated error.
        case failure(Failure)
    }

    /// A requested number of items, sent to a publisher from a subscriber through the subscription.
    public struct Demand: Equatable, Comparable, Hashable, Codable, CustomStringConvertible, Sendable {
        private let count: Int?

        private init(count: Int?) { self.count = count }

        /// A request for as many values as the publisher can produce.
        public static let unlimited = Demand(count: nil)
        /// A request for no elements from the publisher.
        public static let none = Demand(count: 0)

        /// Creates a demand for the given maximum number of elements.
        public static func max(_ value: Int) -> Subscribers.Demand { Demand(count: Swift.max(0, value)) }

        /// The number of requested values; nil for `.unlimited`.
        public var max: Int? { count }

        /// Returns a Boolean value that indicates whether the first demand requests fewer elements than the second.
        public static func < (lhs: Subscribers.Demand, rhs: Subscribers.Demand) -> Bool {
            switch (lhs.count, rhs.count) {
            case (nil, _): false
            case (_, nil): true
            case let (left?, right?): left < right
            }
        }

        /// A textual representation of this instance.
        public var description: String { count.map { "max(\($0))" } ?? "unlimited" }
    }
}
