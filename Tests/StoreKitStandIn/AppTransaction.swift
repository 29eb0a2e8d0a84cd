// StoreKit's top-level names an app meets beside Tally (../shared/docs/storekit-interface-ios26.txt): the app
// transaction, the storefront, and the iOS 18.4 typealiases of the subscription types. Declared so a file importing
// Tally and StoreKit uses them unqualified (Tests/TallyAppTests): the test stops compiling, as a device build
// would, if Tally ever exports one of these names. Only the members those tests use, each as Apple declares it.
import Foundation

/// Information that represents the customer's purchase of the app, cryptographically signed by the App Store.
@available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
public struct AppTransaction: Sendable {
    /// The bundle identifier that the app transaction applies to.
    public let bundleID: String

    /// The app version that the customer originally purchased from the App Store.
    public let originalAppVersion: String

    /// A scripted app transaction.
    @_spi(Scripting) public init(bundleID: String, originalAppVersion: String) {
        self.bundleID = bundleID
        self.originalAppVersion = originalAppVersion
    }
}

/// An object containing the location and unique identifier of an Apple App Store storefront.
@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
public struct Storefront: Identifiable, Sendable {
    /// The three-letter code representing the country or region associated with the App Store storefront.
    public let countryCode: String

    /// A value defined by Apple that uniquely identifies an App Store storefront.
    public let id: String

    /// A type that represents the ID of the storefront.
    @available(iOS 15.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, macOS 12.0, *)
    public typealias ID = String

    /// The storefront of the App Store account (the script's ``StoreKitScript/Answers/storefront``).
    public static var current: Storefront? {
        get async { StoreKitScript.shared.storefront }
    }

    /// A scripted storefront.
    @_spi(Scripting) public init(countryCode: String, id: String) {
        self.countryCode = countryCode
        self.id = id
    }
}

/// Information about an auto-renewable subscription.
@available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
public typealias SubscriptionInfo = Product.SubscriptionInfo

/// A period of time expressed as a unit of time and the number of units.
@available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
public typealias SubscriptionPeriod = Product.SubscriptionPeriod

/// Signed information about the renewal of an auto-renewable subscription.
@available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
public typealias SubscriptionRenewalInfo = Product.SubscriptionInfo.RenewalInfo

/// The renewal states of auto-renewable subscriptions.
@available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
public typealias SubscriptionRenewalState = Product.SubscriptionInfo.RenewalState

/// The renewal status information for an auto-renewable subscription.
@available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
public typealias SubscriptionStatus = Product.SubscriptionInfo.Status
