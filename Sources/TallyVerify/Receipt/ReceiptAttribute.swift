import Foundation

/// One `ReceiptAttribute ::= SEQUENCE { type INTEGER, version INTEGER, value OCTET STRING }` of an app
/// receipt, kept raw: used for attribute types Tally does not model, so nothing in a receipt is lost.
public struct ReceiptAttribute: Sendable, Hashable, Codable {
    /// The attribute type number (e.g. 8, 1709); Apple documents only some of them.
    public var type: Int
    /// The attribute's version field; Apple gives it no meaning.
    public var version: Int
    /// The contents of the `value` OCTET STRING: itself a DER value (UTF8String, INTEGER, …) or opaque bytes.
    public var value: Data

    /// Creates an attribute from its three fields.
    public init(type: Int, version: Int, value: Data) {
        self.type = type
        self.version = version
        self.value = value
    }
}
