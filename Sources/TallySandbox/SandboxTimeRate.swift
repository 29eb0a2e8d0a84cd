import Foundation
import TallyCore

/// How fast subscriptions run, from `SKTestSession.TimeRate` (raw values as in .storekit files).
///
/// * `realTime` (0) and unknown values: calendar periods; grace 6 days (weekly) or 16 days; retry 60 days.
/// * Monthly scales (10, 11, 12, 13, 15): a week, a month and a year take the durations of Apple's table;
///   n months take n × a month, n years n × a year, n days n/7 of a week (inferred). Grace and retry as the table.
/// * Fixed rates (1000–1005): every period takes the interval, grace equals it, retry is twice it.
/// * Deprecated "… is one day" rates (1–6): every duration is scaled so that a day takes the named time.
public struct SandboxTimeRate: Sendable, Hashable {
    private enum Scale: Hashable {
        case real
        case monthly(week: Double, month: Double, year: Double, graceWeekly: Double, grace: Double, retry: Double)
        case fixed(Double)
        case dayIs(Double)
    }

    private let scale: Scale

    /// Raw values this type knows; others run in real time.
    public static let knownRawValues: Set<Int> = [0, 1, 2, 3, 4, 5, 6, 10, 11, 12, 13, 15, 1000, 1001, 1002, 1003, 1004, 1005]

    /// The rate for a raw `SKTestSession.TimeRate` value; unknown values run in real time.
    public init(rawValue: Int) {
        switch rawValue {
        case 1: scale = .dayIs(3600)
        case 2: scale = .dayIs(1800)
        case 3: scale = .dayIs(300)
        case 4: scale = .dayIs(60)
        case 5: scale = .dayIs(30)
        case 6: scale = .dayIs(1)
        case 10: scale = .monthly(week: 900, month: 3600, year: 43_200, graceWeekly: 771, grace: 1800, retry: 7200)
        case 11: scale = .monthly(week: 600, month: 1800, year: 21_600, graceWeekly: 514, grace: 900, retry: 3600)
        case 12: scale = .monthly(week: 300, month: 900, year: 10_800, graceWeekly: 257, grace: 450, retry: 1800)
        case 13: scale = .monthly(week: 180, month: 300, year: 3600, graceWeekly: 154, grace: 150, retry: 600)
        case 15: scale = .monthly(week: 10, month: 30, year: 360, graceWeekly: 9, grace: 15, retry: 60)
        case 1000: scale = .fixed(900)
        case 1001: scale = .fixed(300)
        case 1002: scale = .fixed(60)
        case 1003: scale = .fixed(30)
        case 1004: scale = .fixed(10)
        case 1005: scale = .fixed(2)
        default: scale = .real
        }
    }

    /// Whether the rate is real time.
    public var isRealTime: Bool { scale == .real }

    /// The end of `count` periods starting at `date`, to the millisecond.
    public func end(of period: SubscriptionDuration, count: Int = 1, from date: Date) -> Date {
        rawEnd(of: period, count: count, from: date).wholeMilliseconds
    }

    private func rawEnd(of period: SubscriptionDuration, count: Int, from date: Date) -> Date {
        switch scale {
        case .real:
            return period.advance(date, by: count)
        case .dayIs(let seconds):
            let real = period.advance(date, by: count).timeIntervalSince(date)
            return date.addingTimeInterval(real / 86_400 * seconds)
        case .fixed(let seconds):
            return date.addingTimeInterval(seconds * Double(count))
        case .monthly(let week, let month, let year, _, _, _):
            let units = Double(period.value * count)
            let seconds: Double = switch period.unit {
            case .day: units * week / 7
            case .week: units * week
            case .month: units * month
            case .year: units * year
            }
            return date.addingTimeInterval(seconds)
        }
    }

    /// The end of the billing grace period for a renewal that failed at `date`, to the millisecond.
    public func graceEnd(for period: SubscriptionDuration, from date: Date) -> Date {
        rawGraceEnd(for: period, from: date).wholeMilliseconds
    }

    private func rawGraceEnd(for period: SubscriptionDuration, from date: Date) -> Date {
        let weekly = period.unit == .day || (period.unit == .week && period.value == 1)
        switch scale {
        case .real:
            return SubscriptionDuration(value: weekly ? 6 : 16, unit: .day).advance(date)
        case .dayIs(let seconds):
            return date.addingTimeInterval((weekly ? 6 : 16) * seconds)
        case .fixed(let seconds):
            return date.addingTimeInterval(seconds)
        case .monthly(_, _, _, let graceWeekly, let grace, _):
            return date.addingTimeInterval(weekly ? graceWeekly : grace)
        }
    }

    /// The end of billing retry for a renewal that failed at `date`, to the millisecond.
    public func retryEnd(from date: Date) -> Date {
        rawRetryEnd(from: date).wholeMilliseconds
    }

    private func rawRetryEnd(from date: Date) -> Date {
        switch scale {
        case .real: SubscriptionDuration(value: 60, unit: .day).advance(date)
        case .dayIs(let seconds): date.addingTimeInterval(60 * seconds)
        case .fixed(let seconds): date.addingTimeInterval(2 * seconds)
        case .monthly(_, _, _, _, _, let retry): date.addingTimeInterval(retry)
        }
    }
}

extension Date {
    /// The date rounded to Apple's millisecond precision.
    var wholeMilliseconds: Date { Date(millisecondsSince1970: millisecondsSince1970) }
}
