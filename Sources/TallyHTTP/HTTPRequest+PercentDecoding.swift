extension HTTPRequest {
    /// Decodes one percent-encoded path segment (`a%2Fb` → `a/b`, `%C3%A9` → `é`; `+` stays `+`).
    /// Returns nil when an escape is not `%` and two hex digits, or the bytes are not UTF-8.
    public static func decodePathSegment(_ segment: some StringProtocol) -> String? {
        percentDecode(segment, plusIsSpace: false)
    }

    /// Decodes one query name or value (`+` is a space, `%20` too); text with an invalid escape or
    /// invalid UTF-8 is kept as sent.
    public static func decodeQueryComponent(_ component: some StringProtocol) -> String {
        percentDecode(component, plusIsSpace: true) ?? String(component)
    }

    /// Percent-decoding over UTF-8 bytes; nil for a bad escape or bytes that are not UTF-8.
    private static func percentDecode(_ text: some StringProtocol, plusIsSpace: Bool) -> String? {
        let input = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(input.count)
        var index = 0
        while index < input.count {
            let byte = input[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < input.count, let high = hexValue(input[index + 1]),
                    let low = hexValue(input[index + 2])
                else { return nil }
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        // Decoding repairs invalid UTF-8 with U+FFFD, so a changed byte sequence means the input was not UTF-8.
        let decoded = String(decoding: output, as: UTF8.self)
        return decoded.utf8.elementsEqual(output) ? decoded : nil
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
