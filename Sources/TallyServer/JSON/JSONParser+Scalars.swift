extension JSONParser {
    /// A number's text, checked against JSON's grammar: `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`.
    mutating func number() throws(JSONSyntaxError) -> String {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        if current == UInt8(ascii: "0") {
            index += 1
        } else {
            guard try digits() > 0 else { throw failure("a number needs digits") }
        }
        if current == UInt8(ascii: ".") {
            index += 1
            guard try digits() > 0 else { throw failure("a number needs digits after '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard try digits() > 0 else { throw failure("a number needs digits in its exponent") }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func digits() throws(JSONSyntaxError) -> Int {
        var count = 0
        while let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
            index += 1
            count += 1
        }
        return count
    }

    /// A string starting at the opening quote, escapes resolved.
    mutating func string() throws(JSONSyntaxError) -> String {
        index += 1
        var scalars: [UInt8] = []
        var runStart = index
        while true {
            guard let byte = current else { throw failure("a string is not closed") }
            if byte == UInt8(ascii: "\"") {
                scalars.append(contentsOf: bytes[runStart..<index])
                index += 1
                return String(decoding: scalars, as: UTF8.self)
            }
            if byte < 0x20 { throw failure("a control character must be escaped inside a string") }
            if byte == UInt8(ascii: "\\") {
                scalars.append(contentsOf: bytes[runStart..<index])
                index += 1
                try escape(into: &scalars)
                runStart = index
                continue
            }
            index += 1
        }
    }

    private mutating func escape(into output: inout [UInt8]) throws(JSONSyntaxError) {
        guard let byte = current else { throw failure("a string ends inside an escape") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(byte)
        case UInt8(ascii: "b"): output.append(0x08)
        case UInt8(ascii: "f"): output.append(0x0C)
        case UInt8(ascii: "n"): output.append(0x0A)
        case UInt8(ascii: "r"): output.append(0x0D)
        case UInt8(ascii: "t"): output.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hex4()
            if (0xD800..<0xDC00).contains(scalar) {
                guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u")
                else { throw failure("a high surrogate must be followed by a low surrogate") }
                index += 2
                let low = try hex4()
                guard (0xDC00..<0xE000).contains(low) else { throw failure("an invalid surrogate pair") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(scalar) {
                throw failure("a lone low surrogate")
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw failure("an invalid \\u escape") }
            output.append(contentsOf: Array(String(Character(unicode)).utf8))
        default:
            throw failure("an unknown escape '\\\(Character(Unicode.Scalar(byte)))'")
        }
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw failure("a \\u escape needs four hex digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("a \\u escape needs four hex digits")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }
}
