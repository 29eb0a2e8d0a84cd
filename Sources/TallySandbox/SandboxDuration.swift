import Foundation
import TallyCore

/// How far to move the sandbox clock: a count of seconds, minutes, hours, days, weeks, months or years.
/// Days and longer are calendar units (Gregorian, UTC), so `1M` from Jan 31 lands on Feb 28/29.
public struct SandboxDuration: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The unit of a duration, written as its suffix.
    public enum Unit: String, Sendable, Hashable, Codable, CaseIterable {
        /// Seconds (`s`).
        case second = "s"
        /// Minutes (`m`).
        case minute = "m"
        /// Hours (`h`).
        case hour = "h"
        /// Calendar days (`d`).
        case day = "d"
        /// Calendar weeks (`w`).
        case week = "w"
        /// Calendar months (`M`).
        case month = "M"
        /// Calendar years (`y`).
        case year = "y"
    }

    /// How many units.
    public var value: Int
    /// The unit.
    public var unit: Unit

    /// Creates a duration of `value` units.
    public init(_ value: Int, _ unit: Unit) {
        self.value = value
        self.unit = unit
    }

    /// Parses `30s`, `45m`, `12h`, `3d`, `2w`, `1M` (month) or `1y`; the count is a positive whole number.
    public init(parsing text: String) throws(SandboxError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let last = trimmed.last, let unit = Unit(rawValue: String(last)) else {
            throw SandboxError(.invalidDuration, "'\(text)' is not a duration: end it with s, m, h, d, w, M (month) or y, as in 45m, 3d, 1M")
        }
        let digits = trimmed.dropLast()
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
              let value = Int(digits), value > 0, value <= 100_000
        else {
            throw SandboxError(.invalidDuration, "'\(text)' is not a duration: give a whole number from 1 to 100000 before the unit, as in 45m, 3d, 1M")
        }
        self.init(value, unit)
    }

    /// The text form, such as `3d`.
    public var description: String { "\(value)\(unit.rawValue)" }

    /// The date this duration after `date`.
    public func advance(_ date: Date) -> Date {
        switch unit {
        case .second: return date.addingTimeInterval(Double(value))
        case .minute: return date.addingTimeInterval(Double(value) * 60)
        case .hour: return date.addingTimeInterval(Double(value) * 3600)
        case .day: return SubscriptionDuration(value: value, unit: .day).advance(date)
        case .week: return SubscriptionDuration(value: value, unit: .week).advance(date)
        case .month: return SubscriptionDuration(value: value, unit: .month).advance(date)
        case .year: return SubscriptionDuration(value: value, unit: .year).advance(date)
        }
    }
}
