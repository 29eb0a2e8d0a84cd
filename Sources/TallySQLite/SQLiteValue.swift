/// A value bound to a statement parameter. Data always travels as a bound value, never inside SQL text.
public enum SQLiteValue: Sendable, Hashable {
    /// SQL NULL.
    case null
    /// A 64-bit integer.
    case integer(Int64)
    /// UTF-8 text, bound with its exact byte length (no truncation at a NUL).
    case text(String)

    /// Text, or NULL for nil.
    public static func optionalText(_ value: String?) -> SQLiteValue {
        value.map { .text($0) } ?? .null
    }
}
