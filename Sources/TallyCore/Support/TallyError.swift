/// The one error type of TallyCore: what went wrong, and what to do about it.
public struct TallyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure, stable for programs to switch over.
    public enum Code: String, Sendable, Hashable, Codable {
        /// A configuration file (.storekit, tally.json) could not be read or is malformed.
        case invalidConfiguration
        /// A product id is not in the catalog.
        case unknownProduct
        /// A value (duration, price, amount, date) could not be parsed.
        case invalidValue
        /// A spend asked for more than the balance holds.
        case insufficientBalance
        /// An id was reused for a different operation.
        case conflictingId
        /// An Apple payload did not decode.
        case invalidPayload
        /// An offerings document (docs/offerings.md) is malformed or does not match the catalog.
        case invalidOfferings
    }

    /// The kind of failure.
    public var code: Code
    /// A sentence a person can act on, naming the file, key or id involved.
    public var message: String

    /// Creates an error with a code and a human message.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
