import Foundation


/// Gregorian calendar arithmetic in UTC with integer math only, for the hot paths of the rules
/// (`Calendar` is far too slow to call once per transaction). Gives the same results as
/// ``SubscriptionPeriod/advance(_:by:)`` for dates after 1582.
enum UTCCalendar {
    private static let secondsPerDay = 86_400.0
    /// Periods beyond this many months (about 83,000 years) end at `Date.distantFuture`.
    private static let monthLimit = 1_000_000

    /// The date one `period` after `date`; the day of month is clamped (Jan 31 + P1M = Feb 28/29).
    static func advance(_ date: Date, by period: SubscriptionPeriod) -> Date {
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
        let (year, month, dayOfMonth) = civil(fromDay: day)
        let monthIndex = year * 12 + (month - 1) + months
        let newYear = monthIndex >= 0 ? monthIndex / 12 : (monthIndex - 11) / 12
        let newMonth = monthIndex - newYear * 12 + 1
        return self.day(year: newYear, month: newMonth, day: min(dayOfMonth, daysIn(year: newYear, month: newMonth)))
    }

    private static func daysIn(year: Int, month: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date.
    private static func day(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date of a day number (days since 1970-01-01).
    private static func civil(fromDay day: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = day + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let dayOfMonth = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, dayOfMonth)
    }
}
