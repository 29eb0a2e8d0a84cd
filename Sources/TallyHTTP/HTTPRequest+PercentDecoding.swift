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
                guard index + 2 < input.count, let byte = hexByte(input[index + 1], input[index + 2]) else { return nil }
                output.append(byte)
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

    /// The byte two hex digits spell; nil for anything else (a sign is not a digit, so `+f` is nil).
    private static func hexByte(_ high: UInt8, _ low: UInt8) -> UInt8? {
        guard Character(Unicode.Scalar(high)).isHexDigit, Character(Unicode.Scalar(low)).isHexDigit else { return nil }
        return UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
    }
}
