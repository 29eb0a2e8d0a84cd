// UIKit, stood in: only what Tally's on-device API names, `UIWindowScene` (the scene StoreKit presents its sheets
// in: manage subscriptions, offer code redemption, refund requests, messages), with its superclasses as Apple's SDK
// declares them (`@MainActor open class UIWindowScene : UIScene`, `UIScene : UIResponder`, `UIResponder :
// NSObject`) and nothing else. Linux only (Package.swift declares the target only there), so it can never shadow
// Apple's UIKit. Apple's initializer (`init(session:connectionOptions:)`) needs types not stood in; tests make a
// scene with the `@_spi(Scripting)` initializer, which production code cannot see.
import Foundation

/// Stands in for `UIKit.UIResponder` (no members: Tally uses none).
@available(iOS 2.0, tvOS 9.0, visionOS 1.0, *)
@MainActor open class UIResponder: NSObject {}

/// Stands in for `UIKit.UIScene` (no members: Tally uses none).
@available(iOS 13.0, tvOS 13.0, visionOS 1.0, *)
@MainActor open class UIScene: UIResponder {}

/// Stands in for `UIKit.UIWindowScene`: the scene an app hands StoreKit to present a sheet in.
@available(iOS 13.0, tvOS 13.0, visionOS 1.0, *)
@MainActor open class UIWindowScene: UIScene {
    /// A name for test output; not Apple's.
    @_spi(Scripting) public let testName: String

    /// A scene for tests (Apple's scenes come from UIKit's scene session).
    @_spi(Scripting) public init(testName: String = "scene") {
        self.testName = testName
        super.init()
    }
}
