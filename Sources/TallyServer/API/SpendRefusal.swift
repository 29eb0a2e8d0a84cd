import Foundation

/// Why a spend's `admit` refused it, carried through the store back to the endpoint.
enum SpendRefusal: Error, Sendable {
    /// The balance does not cover the spend.
    case insufficientBalance(balance: Decimal, message: String)
    /// The id was used for another amount or currency.
    case conflictingId(String)
    /// Another rule refused it.
    case invalid(String)
}
