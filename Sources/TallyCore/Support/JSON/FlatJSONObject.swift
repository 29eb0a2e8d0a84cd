/// Reads, in one pass over its UTF-8 bytes, a JSON object whose members are all scalars: strings without
/// escapes, integers, `true`, `false` and `null` — the shape of the payloads Apple signs for transactions.
///
/// It is a fast path beside Foundation's `JSONDecoder`, never a replacement: it declines (returns false)
/// whatever it does not read exactly as `JSONDecoder` would — an escape or a control character in a string,
/// a number with a fraction or an exponent, an integer outside `Int64`, a nested object or array, anything
/// after the closing brace, invalid UTF-8, malformed JSON — and the caller then reads the same bytes with
/// `JSONDecoder`, which stays the authority for every error and every unusual document.
enum FlatJSONObject {
    /// A member's value.
    enum Scalar {
        case string(String)
        case integer(Int64)
        case bool(Bool)
        case null
    }

    /// Calls `member` for each member in document order; true when the whole text was such an object and
    /// every call returned true. A call returning false stops the reading (the caller declines the document).
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, _ member: (String, Scalar) -> Bool) -> Bool {
        read(bytes, nested: { _ in false }) { parent, key, value in parent == nil && member(key, value) }
    }

    /// ``read(_:_:)`` for an object whose members may also be flat objects (one level, as a notification's `data`):
    /// `nested` is called with the key of each member whose value is an object and says whether to read it (false
    /// declines the document); its members then come to `member` with that key as `parent` (nil at the top).
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, nested: (String) -> Bool,
                     _ member: (_ parent: String?, _ key: String, _ value: Scalar) -> Bool) -> Bool
    {
        var reader = Reader(bytes: bytes)
        reader.skipSpace()
        return reader.object(parent: nil, nested: nested, member) && reader.isAtEndAfterSpace()
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        /// The object starting at `index`, up to and past its closing brace; members that are objects are read
        /// (when `nested` says so) only at the top (`parent` nil).
        mutating func object(parent: String?, nested: (String) -> Bool,
                             _ member: (String?, String, Scalar) -> Bool) -> Bool
        {
            guard take(UInt8(ascii: "{")) else { return false }
            skipSpace()
            if take(UInt8(ascii: "}")) { return true }
            while true {
                guard take(UInt8(ascii: "\"")), let key = stringBody() else { return false }
                skipSpace()
                guard take(UInt8(ascii: ":")) else { return false }
                skipSpace()
                if parent == nil, index < bytes.count, bytes[index] == UInt8(ascii: "{") {
                    guard nested(key), object(parent: key, nested: nested, member) else { return false }
                } else {
                    guard let value = scalar(), member(parent, key, value) else { return false }
                }
                skipSpace()
                if take(UInt8(ascii: ",")) {
                    skipSpace()
                    continue
                }
                return take(UInt8(ascii: "}"))
            }
        }

        mutating func skipSpace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        mutating func isAtEndAfterSpace() -> Bool {
            skipSpace()
            return index == bytes.count
        }

        /// The text of a string whose opening quote was taken, up to and past its closing quote; nil for an
        /// escape, a control character, invalid UTF-8 or no closing quote.
        mutating func stringBody() -> String? {
            let start = index
            var ascii = true
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    let text = UnsafeBufferPointer(rebasing: bytes[start..<index])
                    index += 1
                    return ascii ? String(decoding: text, as: UTF8.self) : String(validating: text, as: UTF8.self)
                }
                if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
                if byte >= 0x80 { ascii = false }
                index += 1
            }
            return nil
        }

        mutating func scalar() -> Scalar? {
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index += 1
                return stringBody().map(Scalar.string)
            case UInt8(ascii: "t"): return literal("true", .bool(true))
            case UInt8(ascii: "f"): return literal("false", .bool(false))
            case UInt8(ascii: "n"): return literal("null", .null)
            default: return integer().map(Scalar.integer)
            }
        }

        mutating func literal(_ word: StaticString, _ value: Scalar) -> Scalar? {
            let count = word.utf8CodeUnitCount
            guard bytes.count - index >= count else { return nil }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return nil }
            index += count
            return value
        }

        /// An integer as JSON writes one (`-`, then `0` or digits not starting with `0`), not followed by a
        /// fraction or an exponent; nil outside `Int64`.
        mutating func integer() -> Int64? {
            let negative = take(UInt8(ascii: "-"))
            let first = index
            var magnitude: UInt64 = 0
            while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 {
                let (times, overflow) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, carry) = times.addingReportingOverflow(UInt64(bytes[index] &- UInt8(ascii: "0")))
                guard !overflow, !carry else { return nil }
                magnitude = sum
                index += 1
            }
            let digits = index - first
            guard digits > 0, digits == 1 || bytes[first] != UInt8(ascii: "0") else { return nil }
            if index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): return nil
                default: break
                }
            }
            if negative {
                guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
                return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
            }
            guard magnitude <= UInt64(Int64.max) else { return nil }
            return Int64(magnitude)
        }
    }
}
