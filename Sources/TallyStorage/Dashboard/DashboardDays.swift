import Foundation
import TallyCore

/// The UTC days an overview covers: the `count` days ending with today's.
public struct DashboardDays: Sendable, Hashable {
    /// The ranges the dashboard offers.
    public static let allowedCounts = [7, 30, 90]
    /// How many days.
    public let count: Int
    /// The first day's start (UTC midnight).
    public let start: Date
    /// The end of the last day (the next UTC midnight after `now`).
    public let end: Date

    /// The `count` days ending with the UTC day of `now`.
    public init(count: Int, endingAt now: Date) {
        self.count = count
        let day: Double = 86_400
        let today = (now.timeIntervalSince1970 / day).rounded(.down) * day
        start = Date(timeIntervalSince1970: today - Double(count - 1) * day)
        end = Date(timeIntervalSince1970: today + day)
    }

    /// The most days a chosen range (`from`…`to`) may cover.
    public static let maximumCount = 366

    /// The days `first`…`last` (days since 1970-01-01, both included); `last` not before `first`.
    public init(firstDay first: Int64, lastDay last: Int64) {
        count = Int(last - first + 1)
        start = Date(timeIntervalSince1970: Double(first) * 86_400)
        end = Date(timeIntervalSince1970: Double(last + 1) * 86_400)
    }

    /// The day number of `YYYY-MM-DD` (exactly ten characters, a real date of years 1970…9999); nil otherwise.
    public static func dayNumber(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              year >= 1970, (1...12).contains(month), (1...CivilDate.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        return Int64(CivilDate.dayNumber(year: year, month: month, day: day))
    }

    /// Each day as `YYYY-MM-DD`, oldest first.
    public var labels: [String] {
        (0..<count).map { DashboardDays.label(start.addingTimeInterval(Double($0) * 86_400)) }
    }

    /// `YYYY-MM-DD` of a date's UTC day.
    static func label(_ date: Date) -> String {
        label(dayNumber: Int64((date.timeIntervalSince1970 / 86_400).rounded(.down)))
    }

    /// `YYYY-MM-DD` of a day number (days since 1970-01-01).
    public static func label(dayNumber: Int64) -> String {
        let civil = CivilDate.components(ofDay: Int(dayNumber))
        return String(format: "%04d-%02d-%02d", civil.year, civil.month, civil.day)
    }
}
