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

    /// The date one period after `date`, on the Gregorian calendar in UTC (Jan 31 + P1M = Feb 28/29).
    public func advance(_ date: Date, by count: Int = 1) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var components = DateComponents()
        switch unit {
        case .day: components.day = value * count
        case .week: components.day = 7 * value * count
        case .month: components.month = value * count
        case .year: components.year = value * count
        }
        return calendar.date(byAdding: components, to: date)!
    }

    public init(from decoder: Decoder) throws {
        try self.init(iso8601: decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(iso8601)
    }
}
