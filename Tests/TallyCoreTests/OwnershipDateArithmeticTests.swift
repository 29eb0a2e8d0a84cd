import Foundation
import Testing
@testable import TallyCore

@Suite("Ownership date arithmetic")
struct OwnershipDateArithmeticTests {
    static let periods = ["P1D", "P3D", "P1W", "P2W", "P1M", "P2M", "P3M", "P6M", "P1Y", "P2Y", "P13M"]

    /// Month ends, leap days, century years, and spread-out instants with milliseconds.
    static let dates: [Date] = {
        var dates = ["2024-01-31T23:59:59Z", "2024-02-29T12:00:00Z", "2023-03-31T00:00:00Z", "2100-02-28T06:30:00Z",
                     "2000-02-29T00:00:00Z", "1999-12-31T23:59:59Z", "2023-08-31T10:00:00Z", "1970-01-01T00:00:00Z"]
            .compactMap { try? Date($0, strategy: .iso8601) }
        var seed: UInt64 = 0x5EED
        for _ in 0..<200 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            dates.append(Date(timeIntervalSince1970: Double((seed >> 20) % 4_000_000_000_000) / 1000))
        }
        return dates
    }()

    /// Foundation's Gregorian `Calendar` in UTC: the oracle the one period arithmetic is held to.
    static func calendarAdvance(_ date: Date, by period: SubscriptionDuration, count: Int) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var components = DateComponents()
        switch period.unit {
        case .day: components.day = period.value * count
        case .week: components.day = 7 * period.value * count
        case .month: components.month = period.value * count
        case .year: components.year = period.value * count
        }
        return calendar.date(byAdding: components, to: date)!
    }

    @Test(arguments: periods)
    func matchesFoundationCalendar(_ text: String) throws {
        let period = try SubscriptionDuration(iso8601: text)
        #expect(Self.dates.count == 208)
        for date in Self.dates {
            for count in [1, 2, 7] {
                let fast = period.advance(date, by: count)
                let slow = Self.calendarAdvance(date, by: period, count: count)
                #expect(abs(fast.timeIntervalSince(slow)) < 0.000_5, "\(text) × \(count) after \(date)")
            }
        }
    }

    @Test func absurdPeriodsEndInTheFarFutureInsteadOfCrashing() {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(UTCCalendar.advance(start, by: SubscriptionDuration(value: Int.min, unit: .month)) == .distantFuture)
        #expect(UTCCalendar.advance(start, by: SubscriptionDuration(value: 2_000_000, unit: .year)) == .distantFuture)
        #expect(UTCCalendar.advance(Date(timeIntervalSince1970: .infinity), by: SubscriptionDuration(value: 1, unit: .day))
                == .distantFuture)
        #expect(SubscriptionDuration(value: 1, unit: .month).advance(start, by: Int.max) == .distantFuture)
        #expect(SubscriptionDuration(value: Int.max, unit: .day).advance(start, by: 2) == .distantFuture)
    }
}
