import Foundation


/// What the app knows about why a purchase started (the screen, the offer shown). Stored with a pending
/// purchase and handed back when it completes, even after a restart.
public struct PurchaseContext: Sendable, Hashable, Codable {
    /// The screen the purchase started from (`"paywall"`, `"shop"`).
    public var screen: String?
    /// The offer shown (`"launch-sale"`).
    public var offer: String?
    /// Anything else the app wants back, by key.
    public var info: [String: String]

    /// Creates a context.
    public init(screen: String? = nil, offer: String? = nil, info: [String: String] = [:]) {
        self.screen = screen
        self.offer = offer
        self.info = info
    }
}
