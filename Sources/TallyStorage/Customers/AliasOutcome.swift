import Foundation

/// What ``CustomerStore/alias(_:to:at:)`` did.
public enum AliasOutcome: Sendable, Equatable {
    /// The alias is new: the anonymous customer's purchases, spends, nets, notifications, account token and
    /// attributes were moved to the identified customer in the same transaction.
    case aliased
    /// The alias already named this very customer; anything stored for the anonymous id since (a write that
    /// raced the first alias) was moved as well.
    case unchanged
    /// The alias already names another customer (`owner`): nothing was written.
    case conflict(owner: String)
}

/// One alias of a customer, for the dashboard.
public struct CustomerAlias: Sendable, Equatable {
    /// The anonymous id (`AnonymousCustomerId`) that now names the customer.
    public var alias: String
    /// When it was made (whole milliseconds).
    public var created: Date

    /// Creates an alias row.
    public init(alias: String, created: Date) {
        self.alias = alias
        self.created = created
    }
}


