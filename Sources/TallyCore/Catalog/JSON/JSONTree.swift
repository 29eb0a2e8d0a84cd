/// A parsed JSON document that keeps what `JSONSerialization` and `JSONDecoder` lose: the exact text of
/// numbers (so prices and amounts become `Decimal` without passing through `Double`) and key order.
enum JSONTree: Sendable, Hashable {
    case null
    case bool(Bool)
    /// The number exactly as written (`0.1`, `-3`, `1e2`).
    case number(String)
    case string(String)
    case array([JSONTree])
    /// Members in file order; a repeated key keeps its first value when looked up.
    case object([Member])

    /// One `"key": value` pair of an object.
    struct Member: Sendable, Hashable {
        var key: String
        var value: JSONTree
    }

    /// The JSON type name used in error messages ("a string", "an object").
    var typeName: String {
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
    subscript(key: String) -> JSONTree? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }
}
