extension JSONTreeParser {
    /// Reads digits, sign, fraction and exponent and keeps them as text.
    mutating func parseNumber() throws(SyntaxError) -> JSONTree {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        if current == UInt8(ascii: "0") {
            index += 1
            if let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                throw error("numbers may not have leading zeros")
            }
        } else if try digits() == 0 {
            throw error("a number needs digits")
        }
        if current == UInt8(ascii: ".") {
            index += 1
            guard try digits() > 0 else { throw error("a decimal point needs digits after it") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard try digits() > 0 else { throw error("an exponent needs digits") }
        }
        return .number(String(decoding: bytes[start..<index], as: UTF8.self))
    }

    private mutating func digits() throws(SyntaxError) -> Int {
        var count = 0
        while let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { index += 1; count += 1 }
        return count
    }

    /// Reads a quoted string with its escapes, including UTF-16 surrogate pairs.
    mutating func parseString() throws(SyntaxError) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var runStart = index
        func flush(_ bytes: ArraySlice<UInt8>) { scalars.append(contentsOf: String(decoding: bytes, as: UTF8.self).unicodeScalars) }
        while true {
            guard let byte = current else { throw error("unexpected end of file inside a string (the JSON is truncated)") }
            switch byte {
            case UInt8(ascii: "\""):
                flush(bytes[runStart..<index])
                index += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                flush(bytes[runStart..<index])
                index += 1
                scalars.append(try parseEscape())
                runStart = index
            case 0..<0x20:
                throw error("control character inside a string")
            default:
                index += 1
            }
        }
    }

    private mutating func parseEscape() throws(SyntaxError) -> Unicode.Scalar {
        guard let byte = current else { throw error("unexpected end of file in an escape") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let first = try hex4()
            if (0xD800..<0xDC00).contains(first), current == UInt8(ascii: "\\"),
               index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") {
                index += 2
                let second = try hex4()
                if (0xDC00..<0xE000).contains(second),
                   let scalar = Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)) {
                    return scalar
                }
                throw error("invalid UTF-16 surrogate pair")
            }
            guard let scalar = Unicode.Scalar(first) else { throw error("invalid \\u escape (lone surrogate)") }
            return scalar
        default:
            throw error("invalid escape '\\\(Character(Unicode.Scalar(byte)))'")
        }
    }

    private mutating func hex4() throws(SyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current, let digit = Character(Unicode.Scalar(byte)).hexDigitValue else {
                throw error("\\u needs four hex digits")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }
}
