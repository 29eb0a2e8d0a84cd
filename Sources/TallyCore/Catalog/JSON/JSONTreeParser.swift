/// Parses JSON text (RFC 8259) into a ``JSONTree``; syntax errors name the line and column.
struct JSONTreeParser {
    /// A syntax error at a position in the text.
    struct SyntaxError: Error, Sendable {
        var message: String
        var line: Int
        var column: Int
    }

    let bytes: [UInt8]
    var index = 0
    private var depth = 0
    private static let maximumDepth = 512

    /// Parses a whole document; anything but whitespace after the value is an error.
    static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> JSONTree {
        var parser = JSONTreeParser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.error("unexpected text after the end of the JSON value") }
        return value
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    func error(_ message: String) -> SyntaxError {
        var line = 1, column = 1
        for byte in bytes[..<min(index, bytes.count)] {
            if byte == UInt8(ascii: "\n") { line += 1; column = 1 } else if byte & 0xC0 != 0x80 { column += 1 }
        }
        return SyntaxError(message: message, line: line, column: column)
    }

    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    private mutating func expect(_ literal: String, _ value: JSONTree) throws(SyntaxError) -> JSONTree {
        for byte in literal.utf8 {
            guard current == byte else { throw error("invalid literal, expected '\(literal)'") }
            index += 1
        }
        return value
    }

    private mutating func parseValue() throws(SyntaxError) -> JSONTree {
        guard let byte = current else { throw error("unexpected end of file (the JSON is truncated)") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try expect("true", .bool(true))
        case UInt8(ascii: "f"): return try expect("false", .bool(false))
        case UInt8(ascii: "n"): return try expect("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected character '\(Character(Unicode.Scalar(byte)))'")
        }
    }

    private mutating func enter() throws(SyntaxError) {
        depth += 1
        if depth > Self.maximumDepth { throw error("nesting deeper than \(Self.maximumDepth) levels") }
    }

    private mutating func parseObject() throws(SyntaxError) -> JSONTree {
        try enter()
        defer { depth -= 1 }
        index += 1
        var members: [JSONTree.Member] = []
        skipWhitespace()
        if current == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw error(current == nil ? "unexpected end of file (the JSON is truncated)" : "expected a quoted key") }
            let key = try parseString()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("expected ':' after key \"\(key)\"") }
            index += 1
            skipWhitespace()
            members.append(JSONTree.Member(key: key, value: try parseValue()))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(members)
            case nil: throw error("unexpected end of file (the JSON is truncated)")
            default: throw error("expected ',' or '}' after the value of \"\(key)\"")
            }
        }
    }

    private mutating func parseArray() throws(SyntaxError) -> JSONTree {
        try enter()
        defer { depth -= 1 }
        index += 1
        var elements: [JSONTree] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") { index += 1; return .array(elements) }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(elements)
            case nil: throw error("unexpected end of file (the JSON is truncated)")
            default: throw error("expected ',' or ']' in an array")
            }
        }
    }
}
