/// Measures how deeply a JSON text nests arrays and objects without decoding it, so a hostile body
/// (`[[[[…`) is refused before any recursive parsing starts.
enum JSONDepthScan {
    /// Whether `bytes` nests arrays and objects deeper than `limit`. Brackets inside strings do not count.
    static func exceeds(_ bytes: [UInt8], limit: Int) -> Bool {
        var depth = 0
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index = stringEnd(bytes, from: index)
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > limit { return true }
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
            default:
                break
            }
            index += 1
        }
        return false
    }

    /// The index of the quote closing the string that opens at `start`, escapes skipped; the last index
    /// when the string is not closed.
    static func stringEnd(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start + 1
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\\") {
                index += 2
                continue
            }
            if bytes[index] == UInt8(ascii: "\"") { return index }
            index += 1
        }
        return bytes.count - 1
    }
}
