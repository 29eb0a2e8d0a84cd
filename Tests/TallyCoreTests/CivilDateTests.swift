import Foundation
import Testing
@testable import TallyCore

@Suite("CivilDate: integer Gregorian day numbers agree with Foundation's calendar")
struct CivilDateTests {
    @Test(arguments: [-719_468, -1, 0, 59, 11_016, 19_782, 20_513, 2_932_896])
    func dayNumbersRoundTripAndMatchFoundation(day: Int) throws {
        let parts = CivilDate.components(ofDay: day)
        #expect(CivilDate.dayNumber(year: parts.year, month: parts.month, day: parts.day) == day)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        let date = Date(timeIntervalSince1970: Double(day) * 86_400)
        let expected = calendar.dateComponents([.year, .month, .day], from: date)
        if parts.year >= 1583 {  // Foundation switches to the Julian calendar before 1582
            #expect(expected.year == parts.year && expected.month == parts.month && expected.day == parts.day)
        }
    }

    @Test func monthLengthsFollowTheLeapYearRule() {
        #expect(CivilDate.daysIn(month: 2, year: 2024) == 29)
        #expect(CivilDate.daysIn(month: 2, year: 2100) == 28)
        #expect(CivilDate.daysIn(month: 2, year: 2000) == 29)
        #expect(CivilDate.daysIn(month: 4, year: 2026) == 30)
        #expect(CivilDate.daysIn(month: 12, year: 2026) == 31)
    }
}
