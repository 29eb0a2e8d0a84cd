import Foundation

/// What an app sells, decided on the server (docs/offerings.md): the offerings, which one is current, which
/// placement shows which, the targeting rules and experiments, and the entitlement mapping of `tally.json`
/// (`entitlements`, `currencies`, `nonRenewingDurations`). The server keeps every saved version.
public struct OfferingsDocument: Sendable, Hashable {
    /// The offering shown when no rule and no placement picks one; nil: none.
    public var current: String?
    /// The offerings, in the document's order.
    public var offerings: [Offering]
    /// Placement (a screen id: `onboarding`, `settings`) → offering id.
    public var placements: [String: String]
    /// Targeting rules, tried in order before ``placements``.
    public var targeting: [TargetingRule]
    /// Feature name → the product ids that grant it (as `tally.json`'s `entitlements`).
    public var entitlements: [String: [String]]
    /// Currency → product id → amount per unit bought (as `tally.json`'s `currencies`).
    public var currencies: [String: [String: Decimal]]
    /// Product id → the length of one non-renewing purchase (as `tally.json`'s `nonRenewingDurations`).
    public var nonRenewingDurations: [String: SubscriptionDuration]

    /// Creates a document.
    public init(current: String? = nil, offerings: [Offering] = [], placements: [String: String] = [:],
                targeting: [TargetingRule] = [], entitlements: [String: [String]] = [:],
                currencies: [String: [String: Decimal]] = [:],
                nonRenewingDurations: [String: SubscriptionDuration] = [:]) {
        self.current = current
        self.offerings = offerings
        self.placements = placements
        self.targeting = targeting
        self.entitlements = entitlements
        self.currencies = currencies
        self.nonRenewingDurations = nonRenewingDurations
    }

    /// A document holding `configuration`'s mapping and no offerings: what a server seeds its first version with.
    public init(mapping configuration: AppConfiguration) {
        self.init(entitlements: configuration.entitlements, currencies: configuration.currencies,
                  nonRenewingDurations: configuration.nonRenewingDurations)
    }

    /// The app configuration this document's mapping makes with `bundleId` (which stays in `tally.json`).
    public func appConfiguration(bundleId: String) -> AppConfiguration {
        AppConfiguration(bundleId: bundleId, entitlements: entitlements, currencies: currencies,
                         nonRenewingDurations: nonRenewingDurations)
    }

    /// This document with `configuration`'s mapping in place of its own.
    public func replacingMapping(with configuration: AppConfiguration) -> OfferingsDocument {
        var copy = self
        copy.entitlements = configuration.entitlements
        copy.currencies = configuration.currencies
        copy.nonRenewingDurations = configuration.nonRenewingDurations
        return copy
    }

    /// The offering with `id` (compared as bytes).
    public func offering(id: String) -> Offering? {
        offerings.first { $0.id.utf8.elementsEqual(id.utf8) }
    }
}
