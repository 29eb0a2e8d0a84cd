import Foundation
import Testing
import TallyCore
@testable import TallySandbox

@Suite("Sandbox durations")
struct SandboxDurationTests {
    @Test("valid durations", arguments: [
        ("30s", 30.0), ("45m", 2700.0), ("12h", 43_200.0), ("3d", 259_200.0), ("2w", 1_209_600.0),
    ])
    func fixedLengths(text: String, seconds: Double) throws {
        let duration = try SandboxDuration(parsing: text)
        #expect(duration.description == text)
        #expect(duration.advance(Market.start).timeIntervalSince(Market.start) == seconds)
    }

    @Test("M is a calendar month, y a calendar year, m a minute")
    func calendarUnits() throws {
        let jan31 = Date(timeIntervalSince1970: 1_769_817_600) // 2026-01-31 00:00 UTC
        let month = try SandboxDuration(parsing: "1M")
        #expect(month.unit == .month)
        #expect(month.advance(jan31) == Date(timeIntervalSince1970: 1_772_236_800)) // 2026-02-28
        #expect(try SandboxDuration(parsing: "1y").advance(jan31) == Date(timeIntervalSince1970: 1_801_353_600))
        #expect(try SandboxDuration(parsing: "1m").advance(jan31) == jan31.addingTimeInterval(60))
    }

    @Test("invalid durations are refused with a clear message", arguments: [
        "", "3", "d", "0d", "-1d", "1.5h", "3x", "3 days", "1000000d", "٣d",
    ])
    func invalid(text: String) {
        do {
            _ = try SandboxDuration(parsing: text)
            Issue.record("'\(text)' should not parse")
        } catch {
            #expect(error.code == .invalidDuration)
            #expect(error.message.contains("'\(text)'"))
        }
    }
}

@Suite("Sandbox time rates")
struct SandboxTimeRateTests {
    @Test("an unknown time rate runs in real time and says so in the log")
    func unknownRate() throws {
        var settings = StoreKitSettings()
        settings.timeRate = 14
        var sandbox = Market.sandbox(settings: settings)
        #expect(sandbox.events.contains { $0.kind == .settingsChanged && $0.detail?.contains("time rate 14") == true })
        let first = try sandbox.purchase(Market.proMonthly).requireTransaction()
        #expect(first.expiresDate == Market.date(Market.start, plus: 1, .month))
        #expect(!Market.sandbox().events.contains { $0.kind == .settingsChanged })
    }

    @Test("the deprecated one-second-is-one-day rate shrinks a month to its days in seconds")
    func oneSecondIsOneDay() {
        let rate = SandboxTimeRate(rawValue: 6)
        let end = rate.end(of: SubscriptionDuration(value: 1, unit: .month), from: Market.start)
        #expect(end == Market.start.addingTimeInterval(31)) // January has 31 days
        #expect(rate.retryEnd(from: Market.start) == Market.start.addingTimeInterval(60))
        #expect(SandboxTimeRate(rawValue: 0).isRealTime && !rate.isRealTime)
    }
}
