import Foundation

/// Stands in for `StoreKit.AppStore` (an enum used as a namespace).
public enum AppStore: Sendable {
    /// The scripted answer: false under Screen Time or MDM restrictions.
    public static var canMakePayments: Bool { StoreKitScript.shared.canMakePayments }

    /// Records the call and throws the scripted error, if any.
    public static func sync() async throws {
        try StoreKitScript.shared.answerSync()
    }
}

/// Stands in for `StoreKit.StoreKitError` (not Equatable, as Apple's).
public enum StoreKitError: Error, LocalizedError, Sendable {
    case unknown
    case userCancelled
    case networkError(URLError)
    case systemError(any Error)
    case notAvailableInStorefront
    case notEntitled
    @available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
    case unsupported
}
