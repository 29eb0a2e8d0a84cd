import Foundation

/// Finds, in one pass over the bytes, what Foundation's JSON reader lets through although this server
/// must not: trailing commas (`[1,]`), a key repeated in one object (Foundation silently keeps one value)
/// and numbers a `Decimal` cannot hold exactly (Foundation rounds long ones and refuses the whole document
/// for tiny or huge ones). Run it after ``JSONDepthScan`` (the stack it keeps is bounded by the depth).
enum JSONStrictScan {
    /// The first problem found.
    enum Finding: Sendable, Hashable {
        /// A `,` right before `]` or `}`, at this byte offset.
        case trailingComma(offset: Int)
        /// The key appears twice in one object; the offset is the second one's.
        case repeatedKey(String, offset: Int)
        /// A number's text a `Decimal` cannot hold exactly (more than ``maximumDigits`` significant digits,
        /// or a magnitude outside 1e-100…1e100); `member` is the top-level key it is under.
        case inexactNumber(String, member: String?)
    }

    /// The most significant digits a `Decimal` holds exactly.
    static let maximumDigits = 38

    private struct Frame {
        let isObject: Bool
        var expectingKey: Bool
        var keys: Set<String> = []
    }

    /// The first finding in `bytes` (UTF-8, depth already checked), or nil. Malformed text in other ways is
    /// left for Foundation to refuse.
    static func firstFinding(in bytes: [UInt8]) -> Finding? {
        var stack: [Frame] = []
        var member: String?
        var previous: UInt8 = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                let end = JSONDepthScan.stringEnd(bytes, from: index)
                if let last = stack.indices.last, stack[last].isObject, stack[last].expectingKey {
                    let key = keyText(bytes[index...end])
                    guard stack[last].keys.insert(key).inserted else { return .repeatedKey(key, offset: index) }
                    stack[last].expectingKey = false
                    if stack.count == 1 { member = key }
                }
                index = end
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                stack.append(Frame(isObject: byte == UInt8(ascii: "{"), expectingKey: byte == UInt8(ascii: "{")))
            case UInt8(ascii: ","):
                if let last = stack.indices.last, stack[last].isObject { stack[last].expectingKey = true }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if previous == UInt8(ascii: ",") { return .trailingComma(offset: index) }
                _ = stack.popLast()
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                var end = index
                while end < bytes.count, isNumberByte(bytes[end]) { end += 1 }
                if !isExact(bytes[index..<end]) {
                    return .inexactNumber(String(decoding: bytes[index..<end], as: UTF8.self),
                                          member: stack.isEmpty ? nil : member)
                }
                index = end - 1
            default:
                break
            }
            if byte != 0x20, byte != 0x0A, byte != 0x0D, byte != 0x09 { previous = byte }
            index += 1
        }
        return nil
    }

    /// A key's text with its escapes resolved by Foundation (so `"a"` and `"\u0061"` are the same key).
    private static func keyText(_ literal: ArraySlice<UInt8>) -> String {
        let inner = literal.dropFirst().dropLast()
        guard inner.contains(UInt8(ascii: "\\")),
              let text = try? JSONDecoder().decode(String.self, from: Data(literal)) else {
            return String(decoding: inner, as: UTF8.self)
        }
        return text
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
             UInt8(ascii: "e"), UInt8(ascii: "E"): true
        default: false
        }
    }

    /// Whether a number's text has at most ``maximumDigits`` significant digits and its lowest one lies
    /// between 1e-100 and 1e100. Text outside JSON's number grammar counts as exact: Foundation refuses it.
    static func isExact(_ text: ArraySlice<UInt8>) -> Bool {
        let exponentStart = text.firstIndex { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
        let mantissa = text[..<(exponentStart ?? text.endIndex)]
        var exponent = 0
        if let exponentStart {
            var exponentText = text[(exponentStart + 1)...]
            let negative = exponentText.first == UInt8(ascii: "-")
            if negative || exponentText.first == UInt8(ascii: "+") { exponentText = exponentText.dropFirst() }
            let digits = exponentText.drop { $0 == UInt8(ascii: "0") }
            guard digits.count <= 6 else { return false }
            guard let value = Int(String(decoding: digits.isEmpty ? [UInt8(ascii: "0")] : Array(digits), as: UTF8.self)),
                  !exponentText.isEmpty else { return true }
            exponent = negative ? -value : value
        }
        let point = mantissa.firstIndex(of: UInt8(ascii: "."))
        let fractionDigits = point.map { mantissa.endIndex - $0 - 1 } ?? 0
        var digits = mantissa.filter { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.drop { $0 == UInt8(ascii: "0") }
        var trailingZeros = 0
        while digits.last == UInt8(ascii: "0") {
            digits.removeLast()
            trailingZeros += 1
        }
        guard !digits.isEmpty else { return true }
        let lowest = exponent - fractionDigits + trailingZeros
        return digits.count <= maximumDigits && lowest >= -100 && lowest + digits.count <= 101
    }
}
