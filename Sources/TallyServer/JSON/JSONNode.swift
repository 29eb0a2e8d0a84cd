/// A parsed JSON value as the server reads request bodies and its configuration. Numbers keep their
/// text, so amounts become exact `Decimal`s and never pass through `Double`.
public enum JSONNode: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, as written (`5`, `0.10`, `1e3`).
    case number(String)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONNode])
    /// An object; a key may appear once.
    case object([String: JSONNode])

    /// What kind of value this is, for messages ("a string", "an object").
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The members of an object; nil for another kind.
    public var objectValue: [String: JSONNode]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The text of a string; nil for another kind.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}
