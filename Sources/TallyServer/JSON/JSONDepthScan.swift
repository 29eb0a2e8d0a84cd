/// Measures how deeply a JSON text nests arrays and objects without decoding it, so a hostile body
/// (`[[[[…`) is refused before any recursive parsing starts.
enum JSONDepthScan {
    /// Whether `bytes` nests arrays and objects deeper than `limit`. Brackets inside strings do not count.
    static func exceeds(_ bytes: [UInt8], limit: Int) -> Bool {
        var depth = 0
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > limit { return true }
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
            default:
                break
            }
        }
        return false
    }
}
