/// A strict JSON parser (RFC 8259) over UTF-8 bytes. The depth is checked by ``JSONDepthScan`` before
/// parsing starts; the parser also stops at the same limit, so recursion stays bounded.
public struct JSONParser {
    let bytes: [UInt8]
    private let limit: Int
    var index = 0

    /// Parses `bytes` as one JSON document nested at most `maxDepth` levels.
    public static func parse(_ bytes: [UInt8], maxDepth: Int) throws(JSONSyntaxError) -> JSONNode {
        guard isUTF8(bytes) else {
            throw .malformed("the body is not UTF-8")
        }
        if JSONDepthScan.exceeds(bytes, limit: maxDepth) { throw .tooDeep(limit: maxDepth) }
        var parser = JSONParser(bytes: bytes, limit: maxDepth)
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.failure("unexpected text after the JSON value") }
        return value
    }

    /// Whether `bytes` is well-formed UTF-8.
    static func isUTF8(_ bytes: [UInt8]) -> Bool {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    private init(bytes: [UInt8], limit: Int) {
        self.bytes = bytes
        self.limit = limit
    }

    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    func failure(_ message: String) -> JSONSyntaxError {
        .malformed("not JSON at byte \(index): \(message)")
    }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    private mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONNode {
        guard let byte = current else { throw failure("the text ends where a value should be") }
        switch byte {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw failure("unexpected character")
        }
    }

    private mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw failure("unexpected end of text") }
        let matches = word.withUTF8Buffer { expected in
            (0..<count).allSatisfy { bytes[index + $0] == expected[$0] }
        }
        guard matches else { throw failure("unexpected character") }
        index += count
    }

    private mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONNode {
        guard depth <= limit else { throw .tooDeep(limit: limit) }
        index += 1
        var members: [String: JSONNode] = [:]
        skipWhitespace()
        if current == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw failure("an object key must be a string") }
            let key = try string()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw failure("expected ':' after an object key") }
            index += 1
            skipWhitespace()
            let member = try value(depth: depth)
            guard members.updateValue(member, forKey: key) == nil else {
                throw failure("the key \"\(key.prefix(64))\" appears twice")
            }
            skipWhitespace()
            if current == UInt8(ascii: ",") { index += 1; continue }
            guard current == UInt8(ascii: "}") else { throw failure("expected ',' or '}' in an object") }
            index += 1
            return .object(members)
        }
    }

    private mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONNode {
        guard depth <= limit else { throw .tooDeep(limit: limit) }
        index += 1
        var elements: [JSONNode] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") { index += 1; return .array(elements) }
        while true {
            skipWhitespace()
            elements.append(try value(depth: depth))
            skipWhitespace()
            if current == UInt8(ascii: ",") { index += 1; continue }
            guard current == UInt8(ascii: "]") else { throw failure("expected ',' or ']' in an array") }
            index += 1
            return .array(elements)
        }
    }
}
