import CPostgreSQL
import Foundation

/// The rows of one result, in text format; frees the libpq result when released. Not shared between threads.
final class PostgresRows {
    private let result: OpaquePointer

    init(_ result: OpaquePointer) {
        self.result = result
    }

    deinit {
        PQclear(result)
    }

    /// How many rows.
    var count: Int { Int(PQntuples(result)) }

    /// Rows changed by an INSERT, UPDATE or DELETE.
    var affected: Int { Int(String(cString: PQcmdTuples(result))) ?? 0 }

    /// Whether the value is NULL.
    func isNull(_ row: Int, _ column: Int) -> Bool { PQgetisnull(result, Int32(row), Int32(column)) == 1 }

    /// A text value; nil for NULL.
    func text(_ row: Int, _ column: Int) -> String? {
        guard !isNull(row, column), let value = PQgetvalue(result, Int32(row), Int32(column)) else { return nil }
        let length = Int(PQgetlength(result, Int32(row), Int32(column)))
        return value.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
            String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self)
        }
    }

    /// A text value's bytes as they arrived (no `String` made); nil for NULL.
    func textBytes(_ row: Int, _ column: Int) -> [UInt8]? {
        guard !isNull(row, column), let value = PQgetvalue(result, Int32(row), Int32(column)) else { return nil }
        let length = Int(PQgetlength(result, Int32(row), Int32(column)))
        return value.withMemoryRebound(to: UInt8.self, capacity: length) { Array(UnsafeBufferPointer(start: $0, count: length)) }
    }

    /// A text value that must be present.
    func requiredText(_ row: Int, _ column: Int) throws(PostgresError) -> String {
        guard let value = text(row, column) else { throw .corrupt("column \(column) is NULL where a value is required") }
        return value
    }

    /// A `bytea` value (text output `\x` + hex) as the string whose UTF-8 bytes it holds; nil for NULL. Decoded
    /// straight from libpq's buffer (a stored JWS is kilobytes of hex).
    func bytes(_ row: Int, _ column: Int) throws(PostgresError) -> String? {
        guard !isNull(row, column), let value = PQgetvalue(result, Int32(row), Int32(column)) else { return nil }
        let length = Int(PQgetlength(result, Int32(row), Int32(column)))
        let digits = length - 2
        guard length >= 2, value[0] == 0x5C, value[1] == 0x78, digits % 2 == 0 else {
            throw .corrupt("a bytea value is not in hex output format")
        }
        var bytes = [UInt8](repeating: 0, count: digits / 2)
        var valid = true
        value.withMemoryRebound(to: UInt8.self, capacity: length) { text in
            bytes.withUnsafeMutableBufferPointer { out in
                for index in 0..<(digits / 2) {
                    let high = Self.nibbles[Int(text[2 + 2 * index])], low = Self.nibbles[Int(text[3 + 2 * index])]
                    if high > 15 || low > 15 { valid = false }
                    out[index] = high << 4 | (low & 15)
                }
            }
        }
        guard valid else { throw .corrupt("a bytea value holds a character that is not hex") }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The value of each hex digit by its byte (`0-9a-f`); 255 for any other byte.
    private static let nibbles: [UInt8] = (0..<256).map { byte in
        switch byte {
        case 0x30...0x39: UInt8(byte - 0x30)
        case 0x61...0x66: UInt8(byte - 0x61 + 10)
        default: 255
        }
    }

    /// A `bytea` value that must be present.
    func requiredBytes(_ row: Int, _ column: Int) throws(PostgresError) -> String {
        guard let value = try bytes(row, column) else { throw .corrupt("column \(column) is NULL where an id is required") }
        return value
    }

    /// A `bigint` value; nil for NULL.
    func integer(_ row: Int, _ column: Int) throws(PostgresError) -> Int64? {
        guard let text = text(row, column) else { return nil }
        guard let value = Int64(text) else { throw .corrupt("'\(text.prefix(40))' is not an integer") }
        return value
    }

    /// A `numeric` value, exact; nil for NULL.
    func decimal(_ row: Int, _ column: Int) throws(PostgresError) -> Decimal? {
        guard let text = text(row, column) else { return nil }
        guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), !value.isNaN else {
            throw .corrupt("'\(text.prefix(40))' is not a decimal")
        }
        return value
    }

    /// A `boolean` value; nil for NULL.
    func bool(_ row: Int, _ column: Int) -> Bool? {
        text(row, column).map { $0 == "t" }
    }
}
