/// A type that represents the structure and behavior of an app.
@MainActor @preconcurrency
public protocol App {
    /// The type of scene representing the content of the app.
    associatedtype Body: Scene
    /// The content and behavior of the app.
    @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
    /// Creates an instance of the app using the body that you define for its content.
    @MainActor @preconcurrency init()
}

extension App {
    /// Initializes and runs the app (the stand-in builds the app's scene once and returns: nothing is shown).
    @MainActor @preconcurrency public static func main() {
        _ = Self().body
    }
}

/// A part of an app's user interface with a life cycle managed by the system.
@MainActor @preconcurrency
public protocol Scene {
    /// The type of scene that represents the body of this scene.
    associatedtype Body: Scene
    /// The content and behavior of the scene.
    @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

/// A result builder for composing a collection of scenes into a single composite scene.
@resultBuilder public struct SceneBuilder {
    /// Passes a single scene unmodified.
    public static func buildBlock<Content>(_ content: Content) -> Content where Content: Scene { content }
}

/// A scene that presents a group of identically structured windows.
nonisolated public struct WindowGroup<Content>: Scene where Content: View {
    let content: Content

    /// Creates a window group.
    nonisolated public init(@ViewBuilder content: () -> Content) { self.content = content() }

    /// A primitive scene has no body.
    public typealias Body = Never
    /// A primitive scene has no body.
    public var body: Never { fatalError("a primitive scene has no body") }
}

extension Never: Scene {}
