/// Counts the values in a JSON text without decoding it, so a body of half a million tiny elements
/// (`[0,0,0,…]`) is refused in one pass over its bytes instead of costing seconds of parsing.
///
/// A value is every string, number, `true`, `false`, `null`, array and object, the document itself included;
/// an object's member names are not values. Brackets, commas and quotes inside strings do not count.
/// Text that is not JSON is counted roughly and left for the parser to refuse.
enum JSONElementScan {
    /// Whether `bytes` holds more than `limit` values.
    static func exceeds(_ bytes: [UInt8], limit: Int) -> Bool {
        var count = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index = JSONDepthScan.stringEnd(bytes, from: index)
                if !isFollowedByColon(bytes, after: index) { count += 1 }
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                count += 1
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                // A number or a literal: one value, however long.
                count += 1
                while index + 1 < bytes.count, isTokenByte(bytes[index + 1]) { index += 1 }
            default:
                break
            }
            if count > limit { return true }
            index += 1
        }
        return false
    }

    /// Whether the next byte after `index` that is not JSON white space is `:` (so the string ending at
    /// `index` is a member name).
    private static func isFollowedByColon(_ bytes: [UInt8], after index: Int) -> Bool {
        var next = index + 1
        while next < bytes.count {
            switch bytes[next] {
            case 0x20, 0x0A, 0x0D, 0x09: next += 1
            case UInt8(ascii: ":"): return true
            default: return false
            }
        }
        return false
    }

    /// Bytes that continue a number or a literal.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."): true
        default: false
        }
    }
}
