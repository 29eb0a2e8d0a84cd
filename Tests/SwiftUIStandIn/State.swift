import Foundation

/// A type that updates an external property of a view.
public protocol DynamicProperty {}

/// A property wrapper type that can read and write a value managed by SwiftUI.
@propertyWrapper
public struct State<Value>: DynamicProperty {
    /// The stand-in keeps the value in a box shared by the copies of the view, as SwiftUI keeps it in its graph.
    final class Box {
        var value: Value
        init(_ value: Value) { self.value = value }
    }

    let box: Box

    /// Creates a state property that stores an initial value.
    public init(wrappedValue value: Value) { box = Box(value) }

    /// The underlying value referenced by the state variable.
    public var wrappedValue: Value {
        get { box.value }
        nonmutating set { box.value = newValue }
    }

    /// A binding to the state value.
    public var projectedValue: Binding<Value> {
        let box = self.box
        return Binding(unchecked: { box.value }, set: { box.value = $0 })
    }
}

extension State where Value: ExpressibleByNilLiteral {
    /// Creates a state property without an initial value.
    public init() { self.init(wrappedValue: nil) }
}

/// A property wrapper type that can read and write a value owned by a source of truth.
@propertyWrapper
public struct Binding<Value> {
    let read: () -> Value
    let write: (Value) -> Void

    init(unchecked get: @escaping () -> Value, set: @escaping (Value) -> Void) {
        read = get
        write = set
    }

    /// The underlying value referenced by the binding variable.
    public var wrappedValue: Value {
        get { read() }
        nonmutating set { write(newValue) }
    }

    /// A projection of the binding value that returns a binding.
    public var projectedValue: Binding<Value> { self }
}
