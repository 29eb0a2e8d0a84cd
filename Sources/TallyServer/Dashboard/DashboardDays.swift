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
