/// Percent-decoding of one path segment (`a%2Fb` → `a/b`); `+` stays a plus.
enum PathSegment {
    /// The decoded text; nil for a bad `%` escape or bytes that are not UTF-8.
    static func decode(_ segment: Substring) -> String? {
        let input = Array(segment.utf8)
        guard input.contains(UInt8(ascii: "%")) else { return String(segment) }
        var output: [UInt8] = []
        output.reserveCapacity(input.count)
        var index = 0
        while index < input.count {
            let byte = input[index]
            guard byte == UInt8(ascii: "%") else {
                output.append(byte)
                index += 1
                continue
            }
            guard index + 2 < input.count, let high = hex(input[index + 1]), let low = hex(input[index + 2]) else {
                return nil
            }
            output.append(high << 4 | low)
            index += 3
        }
        guard JSONParser.isUTF8(output) else { return nil }
        return String(decoding: output, as: UTF8.self)
    }

    private static func hex(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
