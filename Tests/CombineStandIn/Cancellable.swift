/// A type-erasing cancellable object that executes a provided closure when canceled.
final public class AnyCancellable: Cancellable, Hashable {
    private var cancelAction: (() -> Void)?

    /// Initializes the cancellable object with the given cancel-time closure.
    public init(_ cancel: @escaping () -> Void) {
        cancelAction = cancel
    }

    /// Constructs a type-erasing cancellable object that wraps the given canceller.
    public init<C>(_ canceller: C) where C: Cancellable {
        cancelAction = canceller.cancel
    }

    deinit {
        cancelAction?()
    }

    /// Cancel the activity.
    final public func cancel() {
        let action = cancelAction
        cancelAction = nil
        action?()
    }

    /// Stores this type-erasing cancellable instance in the specified set.
    final public func store(in set: inout Set<AnyCancellable>) {
        set.insert(self)
    }

    /// Hashes the object's identity.
    final public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }

    /// Whether both are the same object.
    public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool {
        lhs === rhs
    }
}

extension Subscribers {
    /// A simple subscriber that requests an unlimited number of values upon subscription.
    final public class Sink<Input, Failure>: Subscriber, Cancellable, CustomStringConvertible where Failure: Error {
        /// The closure to execute on receipt of a value.
        final public let receiveValue: (Input) -> Void
        /// The closure to execute on completion.
        final public let receiveCompletion: (Subscribers.Completion<Failure>) -> Void
        private var subscription: (any Subscription)?

        /// Initializes a sink with the provided closures.
        public init(receiveCompletion: @escaping ((Subscribers.Completion<Failure>) -> Void),
                    receiveValue: @escaping ((Input) -> Void)) {
            self.receiveCompletion = receiveCompletion
            self.receiveValue = receiveValue
        }

        /// A textual representation of this instance.
        final public var description: String { "Sink" }

        /// Keeps the subscription and asks for every value.
        final public func receive(subscription: any Subscription) {
            self.subscription = subscription
            subscription.request(.unlimited)
        }

        /// Calls `receiveValue`.
        final public func receive(_ value: Input) -> Subscribers.Demand {
            receiveValue(value)
            return .none
        }

        /// Calls `receiveCompletion` and lets the subscription go.
        final public func receive(completion: Subscribers.Completion<Failure>) {
            receiveCompletion(completion)
            subscription = nil
        }

        /// Cancels the subscription.
        final public func cancel() {
            let subscription = self.subscription
            self.subscription = nil
            subscription?.cancel()
        }
    }
}

extension Publisher {
    /// Attaches a subscriber with closure-based behavior.
    public func sink(receiveCompletion: @escaping ((Subscribers.Completion<Self.Failure>) -> Void),
                     receiveValue: @escaping ((Self.Output) -> Void)) -> AnyCancellable {
        let sink = Subscribers.Sink<Output, Failure>(receiveCompletion: receiveCompletion, receiveValue: receiveValue)
        receive(subscriber: sink)
        return AnyCancellable(sink)
    }
}

extension Publisher where Self.Failure == Never {
    /// Attaches a subscriber with closure-based behavior to a publisher that never fails.
    public func sink(receiveValue: @escaping ((Self.Output) -> Void)) -> AnyCancellable {
        sink(receiveCompletion: { _ in }, receiveValue: receiveValue)
    }
}

/// The subscribers of one publisher: each gets every value until it cancels (the stand-in's only subscription).
final class SubscriberList<Output> {
    private final class Entry: Subscription {
        let deliver: (Output) -> Void
        weak var list: SubscriberList?

        init(deliver: @escaping (Output) -> Void, list: SubscriberList) {
            self.deliver = deliver
            self.list = list
        }

        func request(_ demand: Subscribers.Demand) {}

        func cancel() {
            list?.entries.removeAll { $0 === self }
        }
    }

    private var entries: [Entry] = []

    func add<S: Subscriber>(_ subscriber: S) where S.Input == Output {
        let entry = Entry(deliver: { _ = subscriber.receive($0) }, list: self)
        entries.append(entry)
        subscriber.receive(subscription: entry)
    }

    func send(_ value: Output) {
        for entry in entries { entry.deliver(value) }
    }
}
