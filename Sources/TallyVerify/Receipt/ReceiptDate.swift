import Foundation
import TallyCore

/// Parses the RFC 3339 dates of receipt attributes: `2025-04-18T01:02:18Z`, `2020-07-22T18:33:15+0100`,
/// `…+01:00`, optional fractional seconds; an empty string means "no date".
enum ReceiptDate {
    /// Why a date string is not a receipt date.
    struct FormatError: Error {
        var detail: String
    }

    /// The date `text` names, nil for an empty string.
    static func parse(_ text: String) throws(FormatError) -> Date? {
        if text.isEmpty { return nil }
        let bytes = Array(text.utf8)
        let expected = "expected yyyy-MM-ddTHH:mm:ss followed by Z or ±hhmm, got \"\(text.prefix(40))\""
        guard bytes.count >= 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t"),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
              let year = number(bytes, 0, 4), let month = number(bytes, 5, 2), let day = number(bytes, 8, 2),
              let hour = number(bytes, 11, 2), let minute = number(bytes, 14, 2), let second = number(bytes, 17, 2)
        else { throw FormatError(detail: expected) }
        var index = 19
        var fraction = 0.0
        if bytes[index] == UInt8(ascii: ".") {
            let start = index + 1
            index = start
            while index < bytes.count, let digit = number(bytes, index, 1) {
                fraction += Double(digit) * pow(10, -Double(index - start + 1))
                index += 1
            }
            guard index > start else { throw FormatError(detail: expected) }
        }
        guard index < bytes.count else { throw FormatError(detail: expected) }
        let offsetSeconds = try offset(Array(bytes[index...]), expected: expected)
        guard (1...12).contains(month), (1...CivilDate.daysIn(month: month, year: year)).contains(day),
              hour < 24, minute < 60, second < 61
        else { throw FormatError(detail: "date out of range: \"\(text.prefix(40))\"") }
        let days = CivilDate.dayNumber(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// Seconds east of UTC for `Z`, `±hh:mm` or `±hhmm`.
    private static func offset(_ bytes: [UInt8], expected: String) throws(FormatError) -> Int {
        if bytes == [UInt8(ascii: "Z")] || bytes == [UInt8(ascii: "z")] { return 0 }
        guard bytes.count == 5 || bytes.count == 6, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-"),
              let hours = number(bytes, 1, 2), hours < 24
        else { throw FormatError(detail: expected) }
        let minuteStart = bytes.count == 6 ? 4 : 3
        guard bytes.count == 5 || bytes[3] == UInt8(ascii: ":"), let minutes = number(bytes, minuteStart, 2), minutes < 60
        else { throw FormatError(detail: expected) }
        let sign = bytes[0] == UInt8(ascii: "-") ? -1 : 1
        return sign * (hours * 3600 + minutes * 60)
    }

    /// The decimal number in `bytes[start..<start+length]`, nil if any byte is not a digit.
    private static func number(_ bytes: [UInt8], _ start: Int, _ length: Int) -> Int? {
        guard start >= 0, start + length <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[start..<(start + length)] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
