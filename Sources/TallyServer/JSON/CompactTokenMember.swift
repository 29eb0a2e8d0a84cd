/// Recognises the one body shape clients post most, `{"<name>":"<compact JWS>"}` (whitespace allowed between
/// tokens), in one pass over its bytes: the value is a non-empty run of base64url characters and dots, so it
/// has no escapes and is its own text. Anything else, however small the difference, is nil: the caller then
/// reads the body with ``StrictJSONReader``, which gives the same value for this shape and the right error
/// for every other.
enum CompactTokenMember {
    /// The value of the only member `name` when `bytes` is exactly such an object; nil otherwise.
    static func value(named name: StaticString, in bytes: [UInt8]) -> String? {
        bytes.withUnsafeBufferPointer { body -> String? in
            var index = 0
            func skipWhitespace() {
                while index < body.count, isWhitespace(body[index]) { index += 1 }
            }
            func take(_ byte: UInt8) -> Bool {
                skipWhitespace()
                guard index < body.count, body[index] == byte else { return false }
                index += 1
                return true
            }
            // The key's bytes and its closing quote follow the opening quote with nothing between.
            let key = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
            guard take(UInt8(ascii: "{")), take(UInt8(ascii: "\"")), body.count - index > key.count,
                  body[index..<(index + key.count)].elementsEqual(key), body[index + key.count] == UInt8(ascii: "\"")
            else { return nil }
            index += key.count + 1
            guard take(UInt8(ascii: ":")), take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            // One table look-up a byte (a JWS is ~3.5 KB of these).
            Self.tokenBytes.withUnsafeBufferPointer { table in
                while index < body.count, table[Int(body[index])] { index += 1 }
            }
            let end = index
            guard end > start, index < body.count, body[index] == UInt8(ascii: "\"") else { return nil }
            index += 1
            guard take(UInt8(ascii: "}")) else { return nil }
            skipWhitespace()
            guard index == body.count else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: body[start..<end]), as: UTF8.self)
        }
    }

    /// JSON's insignificant whitespace: space, tab, line feed, carriage return.
    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// ``isTokenByte(_:)`` for every byte value.
    private static let tokenBytes: [Bool] = (0...255).map { isTokenByte(UInt8($0)) }

    /// base64url's alphabet and the dot between a JWS's parts.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
            return true
        default:
            return false
        }
    }
}
