import Foundation

/// A view that displays one or more lines of read-only text.
nonisolated public struct Text: Equatable, Sendable, View {
    let content: String
    /// Creates a text view that displays a stored string without localization.
    nonisolated public init<S>(_ content: S) where S: StringProtocol { self.content = String(content) }
    /// A primitive view has no body.
    public typealias Body = Never
    /// A primitive view has no body.
    public var body: Never { fatalError("a primitive view has no body") }
}

/// A view that displays an image.
nonisolated public struct Image: Equatable, Sendable, View {
    let name: String
    /// Creates a system symbol image.
    nonisolated public init(systemName: String) { name = systemName }
    /// A primitive view has no body.
    public typealias Body = Never
    /// A primitive view has no body.
    public var body: Never { fatalError("a primitive view has no body") }
}

/// A flexible space that expands along the major axis of its containing stack layout.
nonisolated public struct Spacer: View {
    /// The minimum length this spacer can be shrunk to, along the axis or axes of expansion.
    public var minLength: CGFloat?
    /// Creates a spacer.
    nonisolated public init(minLength: CGFloat? = nil) { self.minLength = minLength }
    /// A primitive view has no body.
    public typealias Body = Never
    /// A primitive view has no body.
    public var body: Never { fatalError("a primitive view has no body") }
}

/// A view that shows the progress toward completion of a task.
nonisolated public struct ProgressView<Label, CurrentValueLabel>: View where Label: View, CurrentValueLabel: View {
    /// A primitive view has no body.
    public typealias Body = Never
    /// A primitive view has no body.
    public var body: Never { fatalError("a primitive view has no body") }
}

extension ProgressView where CurrentValueLabel == EmptyView {
    /// Creates a progress view for showing indeterminate progress, without a label.
    nonisolated public init() where Label == EmptyView {}
}

/// A standard label for user interface items, consisting of an icon with a title.
nonisolated public struct Label<Title, Icon>: View where Title: View, Icon: View {
    let title: Title
    let icon: Icon
    /// A primitive view has no body.
    public typealias Body = Never
    /// A primitive view has no body.
    public var body: Never { fatalError("a primitive view has no body") }
}

extension Label where Title == Text, Icon == Image {
    /// Creates a label with a system icon image and a title generated from a string.
    nonisolated public init<S>(_ title: S, systemImage name: String) where S: StringProtocol {
        self.title = Text(title)
        icon = Image(systemName: name)
    }
}

/// A container for attaching a label to a value-bearing view.
@available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, *)
nonisolated public struct LabeledContent<Label, Content> {
    let label: Label
    let content: Content
}

@available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, *)
extension LabeledContent: View where Label: View, Content: View {
    /// A primitive view has no body.
    public typealias Body = Never
    /// A primitive view has no body.
    public var body: Never { fatalError("a primitive view has no body") }
}

@available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, *)
extension LabeledContent where Label == Text, Content == Text {
    /// Creates a labeled informational view from a string title and value.
    nonisolated public init<S1, S2>(_ title: S1, value: S2) where S1: StringProtocol, S2: StringProtocol {
        label = Text(title)
        content = Text(value)
    }
}

/// A control that initiates an action.
nonisolated public struct Button<Label>: View where Label: View {
    let action: @MainActor () -> Void
    let label: Label

    /// Creates a button that displays a custom label.
    @preconcurrency nonisolated public init(action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label) {
        self.action = action
        self.label = label()
    }

    /// A primitive view has no body.
    public typealias Body = Never
    /// A primitive view has no body.
    public var body: Never { fatalError("a primitive view has no body") }
}

extension Button where Label == Text {
    /// Creates a button that generates its label from a string.
    @preconcurrency nonisolated public init<S>(_ title: S, action: @escaping @MainActor () -> Void)
        where S: StringProtocol {
        self.action = action
        label = Text(title)
    }
}

/// A container that presents rows of data arranged in a single column, optionally providing the ability to select
/// one or more members.
nonisolated public struct List<SelectionValue, Content>: View where SelectionValue: Hashable, Content: View {
    let content: Content
    /// A primitive view has no body.
    public typealias Body = Never
    /// A primitive view has no body.
    public var body: Never { fatalError("a primitive view has no body") }
}

extension List where SelectionValue == Never {
    /// Creates a list with the given content.
    nonisolated public init(@ViewBuilder content: () -> Content) { self.content = content() }
}

/// A container view that you can use to add hierarchy within certain views.
nonisolated public struct Section<Parent, Content, Footer> {
    let header: Parent
    let content: Content
}

extension Section: View where Parent: View, Content: View, Footer: View {
    /// A primitive view has no body.
    public typealias Body = Never
    /// A primitive view has no body.
    public var body: Never { fatalError("a primitive view has no body") }
}

extension Section where Parent == EmptyView, Content: View, Footer == EmptyView {
    /// Creates a section with the provided section content.
    nonisolated public init(@ViewBuilder content: () -> Content) {
        header = EmptyView()
        self.content = content()
    }
}

extension Section where Parent == Text, Content: View, Footer == EmptyView {
    /// Creates a section with the provided section content, with a header generated from a string.
    nonisolated public init<S>(_ title: S, @ViewBuilder content: () -> Content) where S: StringProtocol {
        header = Text(title)
        self.content = content()
    }
}

/// A structure that computes views on demand from an underlying collection of identified data.
nonisolated public struct ForEach<Data, ID, Content> where Data: RandomAccessCollection, ID: Hashable {
    /// The collection of underlying identified data that SwiftUI uses to create views dynamically.
    public var data: Data
    /// A function to create content on demand using the underlying data.
    public var content: (Data.Element) -> Content
}

extension ForEach: View where Content: View {
    /// A primitive view has no body.
    public typealias Body = Never
    /// A primitive view has no body.
    public var body: Never { fatalError("a primitive view has no body") }
}

extension ForEach where ID == Data.Element.ID, Content: View, Data.Element: Identifiable {
    /// Creates an instance that uniquely identifies and creates views across updates based on the identity of the
    /// underlying data.
    nonisolated public init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content) {
        self.data = data
        self.content = content
    }
}

extension ForEach where Content: View {
    /// Creates an instance that uniquely identifies and creates views across updates based on the provided key path
    /// to the underlying data's identifier.
    nonisolated public init(_ data: Data, id: KeyPath<Data.Element, ID>,
                            @ViewBuilder content: @escaping (Data.Element) -> Content) {
        self.data = data
        self.content = content
    }
}

/// An alignment position along the vertical axis.
nonisolated public struct VerticalAlignment: Equatable, Sendable {
    let name: String
    /// A guide that marks the vertical center of the view.
    public static let center = VerticalAlignment(name: "center")
}

/// A view that arranges its subviews in a horizontal line.
nonisolated public struct HStack<Content>: View where Content: View {
    let content: Content
    /// Creates a horizontal stack with the given spacing and vertical alignment.
    nonisolated public init(alignment: VerticalAlignment = .center, spacing: CGFloat? = nil,
                            @ViewBuilder content: () -> Content) {
        self.content = content()
    }
    /// A primitive view has no body.
    public typealias Body = Never
    /// A primitive view has no body.
    public var body: Never { fatalError("a primitive view has no body") }
}

/// A type that collects multiple instances of a content type into a single unit.
nonisolated public struct Group<Content> {
    let content: Content
}

extension Group: View where Content: View {
    /// A primitive view has no body.
    public typealias Body = Never
    /// A primitive view has no body.
    public var body: Never { fatalError("a primitive view has no body") }

    /// Creates a group of views.
    nonisolated public init(@ViewBuilder content: () -> Content) { self.content = content() }
}

/// A type-erased list of data representing the content of a navigation stack.
@available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, *)
nonisolated public struct NavigationPath {
    /// Creates a new, empty navigation path.
    public init() {}
}

/// A view that displays a root view and enables you to present additional views over the root view.
@available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, *)
nonisolated public struct NavigationStack<Data, Root>: View where Root: View {
    let root: Root
    /// A primitive view has no body.
    public typealias Body = Never
    /// A primitive view has no body.
    public var body: Never { fatalError("a primitive view has no body") }
}

@available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, *)
extension NavigationStack where Data == NavigationPath {
    /// Creates a navigation stack that manages its own navigation state.
    nonisolated public init(@ViewBuilder root: () -> Root) { self.root = root() }
}
