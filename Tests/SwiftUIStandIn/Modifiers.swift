import Foundation

/// An enumeration to indicate one edge of a rectangle.
public enum Edge: Int8, CaseIterable, Sendable {
    /// The top, leading, bottom and trailing edges.
    case top, leading, bottom, trailing

    /// An efficient set of edges.
    public struct Set: OptionSet, Sendable {
        /// The edges as bits.
        public let rawValue: Int8
        /// Creates a set of edges from bits.
        public init(rawValue: Int8) { self.rawValue = rawValue }
        /// Every edge.
        public static let all = Edge.Set(rawValue: 0b1111)
    }
}

/// A color or pattern to use when rendering a shape.
public protocol ShapeStyle: Sendable {}

/// A shape style that maps to one of the numbered content styles.
public struct HierarchicalShapeStyle: ShapeStyle {
    let level: Int
}

extension ShapeStyle where Self == HierarchicalShapeStyle {
    /// A shape style that maps to the second level of the current content style.
    public static var secondary: HierarchicalShapeStyle { HierarchicalShapeStyle(level: 1) }
}

/// A type that specifies the appearance and interaction of all buttons within a view hierarchy.
public protocol PrimitiveButtonStyle {}

/// A button style that applies standard border artwork based on the button's context.
public struct BorderedButtonStyle: PrimitiveButtonStyle {
    /// Creates a bordered button style.
    public init() {}
}

extension PrimitiveButtonStyle where Self == BorderedButtonStyle {
    /// A button style that applies standard border artwork based on the button's context.
    public static var bordered: BorderedButtonStyle { BorderedButtonStyle() }
}

extension View {
    /// Adds an equal padding amount to specific edges of this view.
    nonisolated public func padding(_ edges: Edge.Set = .all, _ length: CGFloat? = nil) -> some View { modified() }

    /// Sets the style for buttons within this view to a button style with a custom appearance and custom
    /// interaction behavior.
    nonisolated public func buttonStyle<S>(_ style: S) -> some View where S: PrimitiveButtonStyle { modified() }

    /// Sets a view's foreground elements to use a given style.
    @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, *)
    nonisolated public func foregroundStyle<S>(_ style: S) -> some View where S: ShapeStyle { modified() }

    /// Configures the view's title for purposes of navigation, using a string.
    nonisolated public func navigationTitle<S>(_ title: S) -> some View where S: StringProtocol { modified() }

    /// Populates the toolbar or navigation bar with the specified items.
    nonisolated public func toolbar<Content>(@ViewBuilder content: () -> Content) -> some View where Content: View {
        modified()
    }

    /// Marks this view as refreshable.
    @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, *)
    nonisolated public func refreshable(action: @escaping @Sendable () async -> Void) -> some View { modified() }

    /// Adds an asynchronous task to perform before this view appears.
    @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, *)
    nonisolated public func task(priority: TaskPriority = .userInitiated,
                                 @_inheritActorContext _ action: @escaping @isolated(any) @Sendable () async -> Void)
        -> some View {
        modified()
    }
}
