// Test support, Linux only: the part of Apple's SwiftUI that Examples/MarketApp/MarketApp.swift and
// Tests/TallyAppTests use, with Apple's declarations (the names, generic parameters and signatures of the iOS 18
// SDK), so the example type-checks on Linux. Declared in Package.swift only `#if os(Linux)`: on Apple platforms
// `import SwiftUI` is always Apple's framework. Nothing here renders: views only type-check (a primitive view's
// `body` is `Never`, as in SwiftUI), `App.main()` builds the app's scene and returns, and `@State` keeps its value in
// a box.
import Foundation

/// A type that represents part of your app's user interface and provides modifiers that you use to configure views.
@MainActor @preconcurrency
public protocol View {
    /// The type of view representing the body of this view.
    associatedtype Body: View
    /// The content and behavior of the view.
    @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

extension Never: View {
    /// A primitive view has no body.
    public typealias Body = Never
    /// A primitive view has no body.
    public var body: Never { fatalError("Never has no body") }
}

/// A view that doesn't contain any content.
nonisolated public struct EmptyView: View {
    /// Creates an empty view.
    nonisolated public init() {}
    /// A primitive view has no body.
    public typealias Body = Never
    /// A primitive view has no body.
    public var body: Never { fatalError("a primitive view has no body") }
}

/// A View created from a swift tuple of View values.
nonisolated public struct TupleView<T>: View {
    /// The views.
    public var value: T
    /// Creates a tuple view.
    nonisolated public init(_ value: T) { self.value = value }
    /// A primitive view has no body.
    public typealias Body = Never
    /// A primitive view has no body.
    public var body: Never { fatalError("a primitive view has no body") }
}

/// View content that shows one of two possible children.
nonisolated public struct _ConditionalContent<TrueContent, FalseContent> {
    enum Storage {
        case trueContent(TrueContent)
        case falseContent(FalseContent)
    }

    let storage: Storage
}

extension _ConditionalContent: View where TrueContent: View, FalseContent: View {
    /// A primitive view has no body.
    public typealias Body = Never
    /// A primitive view has no body.
    public var body: Never { fatalError("a primitive view has no body") }
}

extension Optional: View where Wrapped: View {
    /// A primitive view has no body.
    public typealias Body = Never
    /// A primitive view has no body.
    public var body: Never { fatalError("a primitive view has no body") }
}

/// A custom parameter attribute that constructs views from closures.
@resultBuilder public struct ViewBuilder {
    /// Builds an empty view from a block containing no statements.
    public static func buildBlock() -> EmptyView { EmptyView() }

    /// Passes a single view written as a child view through unmodified.
    public static func buildBlock<Content>(_ content: Content) -> Content where Content: View { content }

    /// Combines several views into a tuple view.
    public static func buildBlock<each Content>(_ content: repeat each Content) -> TupleView<(repeat each Content)>
        where repeat each Content: View {
        TupleView((repeat each content))
    }

    /// Passes a view expression through unmodified.
    public static func buildExpression<Content>(_ content: Content) -> Content where Content: View { content }

    /// Produces an optional view for conditional statements in multi-statement closures that's only visible when
    /// the condition evaluates to true.
    public static func buildIf<Content>(_ content: Content?) -> Content? where Content: View { content }

    /// Produces content for a conditional statement in a multi-statement closure when the condition is true.
    public static func buildEither<TrueContent, FalseContent>(first: TrueContent)
        -> _ConditionalContent<TrueContent, FalseContent> where TrueContent: View, FalseContent: View {
        _ConditionalContent(storage: .trueContent(first))
    }

    /// Produces content for a conditional statement in a multi-statement closure when the condition is false.
    public static func buildEither<TrueContent, FalseContent>(second: FalseContent)
        -> _ConditionalContent<TrueContent, FalseContent> where TrueContent: View, FalseContent: View {
        _ConditionalContent(storage: .falseContent(second))
    }
}

/// What every modifier of the stand-in returns (as `some View`): the modified view, nothing rendered.
nonisolated struct ModifiedView<Content: View>: View {
    let content: Content
    typealias Body = Never
    var body: Never { fatalError("a primitive view has no body") }
}

extension View {
    /// The stand-in's modifiers keep the view and return it as `some View`.
    nonisolated func modified() -> ModifiedView<Self> { ModifiedView(content: self) }
}
