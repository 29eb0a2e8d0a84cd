import Foundation


/// A length of time in days, weeks, months or years, written in ISO 8601 as `P3D`, `P1W`, `P1M`, `P1Y`.
public struct SubscriptionDuration: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The calendar unit of a period.
    public enum Unit: String, Sendable, Hashable, Codable, CaseIterable {
        case day = "D", week = "W", month = "M", year = "Y"
    }

    /// How many units.
    public var value: Int
    /// The unit.
    public var unit: Unit

    /// Creates a period of `value` units.
    public init(value: Int, unit: Unit) {
        self.value = value
        self.unit = unit
    }

    /// Parses an ISO 8601 duration such as `P1M`; throws ``TallyError`` naming the text otherwise.
    public init(iso8601 text: String) throws {
        let body = text.uppercased()
        guard body.hasPrefix("P"), body.count >= 3, let unit = Unit(rawValue: String(body.last!)),
              let value = Int(body.dropFirst().dropLast()), value > 0
        else {
            throw TallyError(.invalidValue, "'\(text)' is not an ISO 8601 period such as P3D, P1W, P1M or P1Y")
        }
        self.init(value: value, unit: unit)
    }

    /// The ISO 8601 text, such as `P1M`.
    public var iso8601: String { "P\(value)\(unit.rawValue)" }
    public var description: String { iso8601 }

    /// The date `count` periods after `date`, on the Gregorian calendar in UTC, the day of month clamped (Jan 31 +
    /// P1M = Feb 28/29). The one period arithmetic of every module (UTCCalendar's integer math, which Foundation's
    /// `Calendar` checks in the tests); a period past about 83,000 years ends at `Date.distantFuture`.
    public func advance(_ date: Date, by count: Int = 1) -> Date {
        let (total, overflow) = value.multipliedReportingOverflow(by: count)
        guard !overflow else { return .distantFuture }
        return UTCCalendar.advance(date, by: SubscriptionDuration(value: total, unit: unit))
    }

    public init(from decoder: Decoder) throws {
        try self.init(iso8601: decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(iso8601)
    }
}
