import Foundation


/// Gregorian calendar arithmetic in UTC with integer math only, behind ``SubscriptionDuration/advance(_:by:)``
/// (`Calendar` is far too slow to call once per transaction, and one definition serves every module). The tests hold
/// it to Foundation's `Calendar` (proleptic Gregorian: the same for dates after 1582).
enum UTCCalendar {
    private static let secondsPerDay = 86_400.0
    /// Periods beyond this many months (about 83,000 years) end at `Date.distantFuture`.
    private static let monthLimit = 1_000_000

    /// The date one `period` after `date`; the day of month is clamped (Jan 31 + P1M = Feb 28/29).
    static func advance(_ date: Date, by period: SubscriptionDuration) -> Date {
        let seconds = date.timeIntervalSince1970
        let dayNumber = (seconds / secondsPerDay).rounded(.down)
        let timeOfDay = seconds - dayNumber * secondsPerDay
        guard period.value.magnitude <= monthLimit, abs(dayNumber) < 1e12 else { return .distantFuture }
        let day = Int(dayNumber)
        let newDay: Int
        switch period.unit {
        case .day: newDay = day + period.value
        case .week: newDay = day + 7 * period.value
        case .month: newDay = addMonths(period.value, toDay: day)
        case .year: newDay = addMonths(12 * period.value, toDay: day)
        }
        return Date(timeIntervalSince1970: Double(newDay) * secondsPerDay + timeOfDay)
    }

    /// Day number (days since 1970-01-01) `months` months after `day`, clamping the day of month.
    private static func addMonths(_ months: Int, toDay day: Int) -> Int {
        let (year, month, dayOfMonth) = CivilDate.components(ofDay: day)
        let monthIndex = year * 12 + (month - 1) + months
        let newYear = monthIndex >= 0 ? monthIndex / 12 : (monthIndex - 11) / 12
        let newMonth = monthIndex - newYear * 12 + 1
        return CivilDate.dayNumber(year: newYear, month: newMonth,
                                   day: min(dayOfMonth, CivilDate.daysIn(month: newMonth, year: newYear)))
    }
}
