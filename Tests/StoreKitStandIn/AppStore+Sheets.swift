import Foundation
@_spi(Scripting) import UIKit

@available(iOS 15.0, visionOS 1.0, *)
@available(macOS, unavailable)
@available(watchOS, unavailable)
@available(tvOS, unavailable)
extension AppStore {
    /// Records the manage-subscriptions sheet shown in `scene`; throws the scripted error, if any.
    @available(iOS 15.0, visionOS 1.0, *)
    @available(macOS, unavailable)
    @available(watchOS, unavailable)
    @available(tvOS, unavailable)
    @MainActor public static func showManageSubscriptions(in scene: UIWindowScene) async throws {
        try StoreKitSheetScript.shared.answerManageSubscriptions(scene: scene.testName, groupID: nil)
    }

    /// Records the manage-subscriptions sheet of one group shown in `scene`; throws the scripted error, if any.
    @available(iOS 17.0, visionOS 1.0, *)
    @available(macOS, unavailable)
    @available(watchOS, unavailable)
    @available(tvOS, unavailable)
    @MainActor public static func showManageSubscriptions(in scene: UIWindowScene, subscriptionGroupID: String) async throws {
        try StoreKitSheetScript.shared.answerManageSubscriptions(scene: scene.testName, groupID: subscriptionGroupID)
    }
}

extension AppStore {
    /// Records the offer-code redemption sheet shown in `scene`; throws the scripted error, if any.
    @available(iOS 16.0, visionOS 1.0, *)
    @available(macOS, unavailable)
    @available(watchOS, unavailable)
    @available(tvOS, unavailable)
    @MainActor public static func presentOfferCodeRedeemSheet(in scene: UIWindowScene) async throws {
        try StoreKitSheetScript.shared.answerOfferCodeSheet(scene: scene.testName)
    }
}
