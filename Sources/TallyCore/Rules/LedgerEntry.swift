import Foundation


/// One line of a currency ledger. Balances are sums of entries, never counters.
public struct LedgerEntry: Sendable, Hashable, Codable, Identifiable {
    /// What caused the entry.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// A consumable purchase credited currency.
        case credit
        /// The customer spent currency.
        case spend
        /// A refund took back a purchase's credit.
        case clawback
    }

    /// Unique id: `credit:<transactionId>`, `spend:<spend id>`, `clawback:<transactionId>`.
    public var id: String
    /// What caused it.
    public var kind: Kind
    /// The currency name.
    public var currency: String
    /// Signed amount: positive for credits, negative for spends and claw-backs.
    public var amount: Decimal
    /// When it happened.
    public var date: Date
    /// The transaction behind a credit or claw-back.
    public var transactionId: String?

    /// Creates an entry.
    public init(id: String, kind: Kind, currency: String, amount: Decimal, date: Date, transactionId: String? = nil) {
        self.id = id
        self.kind = kind
        self.currency = currency
        self.amount = amount
        self.date = date
        self.transactionId = transactionId
    }
}
