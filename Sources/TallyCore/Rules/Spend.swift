import Foundation


/// A customer spending virtual currency. The id makes it idempotent: the same id spends once.
public struct Spend: Sendable, Hashable, Codable, Identifiable {
    /// The caller's id for this spend.
    public var id: String
    /// The currency name from `tally.json`.
    public var currency: String
    /// How much, positive.
    public var amount: Decimal
    /// When it was spent.
    public var date: Date

    /// Creates a spend.
    public init(id: String, currency: String, amount: Decimal, date: Date) {
        self.id = id
        self.currency = currency
        self.amount = amount
        self.date = date
    }
}
