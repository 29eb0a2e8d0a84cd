import Foundation

/// How the server turns what a store holds into the encoded `customer` object, handed to a store whose writes
/// answer with it (``CustomerStore/spend(id:currency:for:at:encoding:admit:)``): the store decides what to read,
/// the server keeps the rules and the encoding.
public struct StateEncoding: Sendable {
    /// What a kept state must have been computed with to be used (``StoredCustomerState/fingerprint``).
    public var fingerprint: String
    /// The state of `record` at `date`, ready to keep: version, fingerprint, validity and body.
    public var encode: @Sendable (_ record: CustomerRecord, _ date: Date) -> StoredCustomerState
    /// An encoded state (`body`) with other nets and nothing else changed (the nets are all a spend or a coin
    /// purchase changes); nil when the body cannot be restated (the state is then computed from the record).
    public var restate: @Sendable (_ body: [UInt8], _ nets: [String: Decimal]) -> [UInt8]?

    /// Creates an encoding.
    public init(fingerprint: String,
                encode: @escaping @Sendable (_ record: CustomerRecord, _ date: Date) -> StoredCustomerState,
                restate: @escaping @Sendable (_ body: [UInt8], _ nets: [String: Decimal]) -> [UInt8]?) {
        self.fingerprint = fingerprint
        self.encode = encode
        self.restate = restate
    }
}
