import Foundation


/// A JSON document as Foundation's `JSONDecoder` reads it (see `JSONTree+Decodable.swift`), keeping what
/// `JSONSerialization` loses: numbers are exact `Decimal`s read from their text, never through `Double`.
public enum JSONTree: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, decoded exactly from its text (`0.1`, `-3`, `1e2`).
    case number(Decimal)
    /// A string, escapes resolved.
    case string(String)
    /// An array.
    case array([JSONTree])
    /// Members by key. Foundation keeps neither file order nor repeated keys (one value of a repeated key
    /// is kept); ``JSONCursor/members()`` lists them sorted by key so results and errors are reproducible.
    case object([String: JSONTree])

    /// The JSON type name used in error messages ("a string", "an object").
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The value of `key` when this is an object that has it.
    public subscript(key: String) -> JSONTree? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }
}
