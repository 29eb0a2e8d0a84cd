/// A type of object with a publisher that emits before the object has changed.
public protocol ObservableObject: AnyObject {
    /// The type of publisher that emits before the object has changed.
    associatedtype ObjectWillChangePublisher: Publisher = ObservableObjectPublisher
        where Self.ObjectWillChangePublisher.Failure == Never

    /// A publisher that emits before the object has changed.
    var objectWillChange: Self.ObjectWillChangePublisher { get }
}

extension ObservableObject where Self.ObjectWillChangePublisher == ObservableObjectPublisher {
    /// A publisher that emits before the object has changed: one per object, shared by its `@Published`
    /// properties, which send it before each change. (The stand-in keeps it in those properties: an object
    /// without any gets a new publisher at each read.)
    public var objectWillChange: ObservableObjectPublisher {
        var storages: [any PublishedStorage] = []
        var mirror: Mirror? = Mirror(reflecting: self)
        while let current = mirror {
            for child in current.children {
                if let published = child.value as? any PublishedProperty { storages.append(published.publishedStorage) }
            }
            mirror = current.superclassMirror
        }
        let publisher = storages.lazy.compactMap(\.objectWillChange).first ?? ObservableObjectPublisher()
        for storage in storages { storage.objectWillChange = publisher }
        return publisher
    }
}

/// A publisher that publishes changes from observable objects.
final public class ObservableObjectPublisher: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Void
    /// The kind of errors this publisher might publish.
    public typealias Failure = Never

    private let subscribers = SubscriberList<Void>()

    /// Creates an observable object publisher.
    public init() {}

    /// Attaches the specified subscriber to this publisher.
    final public func receive<S>(subscriber: S) where S: Subscriber, S.Failure == Never, S.Input == () {
        subscribers.add(subscriber)
    }

    /// Sends the changed value to the downstream subscriber.
    final public func send() {
        subscribers.send(())
    }
}

/// A type that publishes a property marked with an attribute.
@propertyWrapper
public struct Published<Value> {
    fileprivate let storage: Storage

    /// Creates the published instance with an initial wrapped value.
    public init(wrappedValue: Value) {
        storage = Storage(value: wrappedValue)
    }

    /// Creates the published instance with an initial value.
    public init(initialValue: Value) {
        self.init(wrappedValue: initialValue)
    }

    /// `@Published` is only available on properties of classes.
    @available(*, unavailable, message: "@Published is only available on properties of classes")
    public var wrappedValue: Value {
        get { fatalError("@Published is only available on properties of classes") }
        set { fatalError("@Published is only available on properties of classes") }
    }

    /// The property's publisher: the current value on subscribing, then each new value before it is set.
    public var projectedValue: Published<Value>.Publisher {
        mutating get { Publisher(storage: storage) }
        set {}
    }

    /// The accessors of the wrapped property of a class: a change sends the object's `objectWillChange`, then
    /// the new value to the property's subscribers, then stores it.
    public static subscript<EnclosingSelf: AnyObject>(
        _enclosingInstance object: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
    ) -> Value {
        get { object[keyPath: storageKeyPath].storage.value }
        set {
            let storage = object[keyPath: storageKeyPath].storage
            storage.objectWillChange?.send()
            storage.subscribers.send(newValue)
            storage.value = newValue
        }
    }

    /// A publisher for properties marked with the `@Published` attribute.
    public struct Publisher: Combine.Publisher {
        /// The kind of values published by this publisher.
        public typealias Output = Value
        /// The kind of errors this publisher might publish.
        public typealias Failure = Never

        fileprivate let storage: Storage

        /// Attaches the specified subscriber to this publisher.
        public func receive<S>(subscriber: S) where Value == S.Input, S: Subscriber, S.Failure == Never {
            storage.subscribers.add(subscriber)
            _ = subscriber.receive(storage.value)
        }
    }

    fileprivate final class Storage: PublishedStorage {
        var value: Value
        var objectWillChange: ObservableObjectPublisher?
        let subscribers = SubscriberList<Value>()

        init(value: Value) { self.value = value }
    }
}

/// The storage of a `@Published` property, found by `objectWillChange` through reflection.
protocol PublishedStorage: AnyObject {
    var objectWillChange: ObservableObjectPublisher? { get set }
}

/// A `@Published` property of any value type.
protocol PublishedProperty {
    var publishedStorage: any PublishedStorage { get }
}

extension Published: PublishedProperty {
    var publishedStorage: any PublishedStorage { storage }
}
