import Foundation
import TallyCore

/// A statement parameter. Ids travel as `bytea` in binary format, so every byte (a NUL included) reaches the
/// database as sent and compares as bytes; JSON, numbers and decimals travel as text.
enum PostgresValue: Sendable {
    /// A string stored in a `bytea` column: its UTF-8 bytes, exactly.
    case bytes(String)
    /// Text for a `text` column (JSON, JWS, a result name): must not contain NUL, which PostgreSQL text cannot hold.
    case text(String)
    /// A `bigint`.
    case integer(Int64)
    /// A `numeric`, exact (never binary floating point).
    case decimal(Decimal)
    /// A `boolean`.
    case bool(Bool)
    /// SQL NULL.
    case null

    /// `.bytes(value)`, or NULL.
    static func optionalBytes(_ value: String?) -> PostgresValue { value.map(PostgresValue.bytes) ?? .null }
    /// `.text(value)`, or NULL.
    static func optionalText(_ value: String?) -> PostgresValue { value.map(PostgresValue.text) ?? .null }

    /// The wire bytes (nil for NULL) and whether they are binary.
    func encoded() throws(PostgresError) -> (bytes: [UInt8]?, binary: Bool) {
        switch self {
        case .bytes(let string): return (Array(string.utf8), true)
        case .text(let string):
            guard !string.utf8.contains(0) else {
                throw PostgresError(sqlState: "22021", "a text value contains a NUL byte, which PostgreSQL text cannot hold")
            }
            return (Array(string.utf8), false)
        case .integer(let value): return (Array(String(value).utf8), false)
        case .decimal(let value): return (Array(value.description.utf8), false)
        case .bool(let value): return (Array((value ? "t" : "f").utf8), false)
        case .null: return (nil, false)
        }
    }
}
