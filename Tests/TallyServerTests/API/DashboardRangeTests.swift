import Foundation
import TallyHTTP
@testable import TallyServer
import TallyStorage
import Testing

/// The overview's days: a preset (`days=7|30|90`) ending today, or a chosen `from`…`to` (UTC days, both included).
@Suite struct DashboardRangeTests {
    /// 2026-12-01 15:00 UTC.
    static let now = Date(timeIntervalSince1970: 1_796_137_200)

    static func days(_ query: [String: String]) throws(APIError) -> DashboardDays {
        try EntitlementAPI.dashboardDays(HTTPRequest(method: "GET", path: "/v1/dashboard/overview", query: query,
                                                     headers: [:], body: []), now: now)
    }

    @Test func aChosenRangeCoversItsDaysBothIncluded() throws {
        let range = try Self.days(["from": "2024-02-27", "to": "2024-03-01"])
        #expect(range.labels == ["2024-02-27", "2024-02-28", "2024-02-29", "2024-03-01"], "2024 is a leap year")
        #expect(range.start == ISO8601DateFormatter().date(from: "2024-02-27T00:00:00Z"))
        #expect(range.end == ISO8601DateFormatter().date(from: "2024-03-02T00:00:00Z"))
        #expect(try Self.days(["from": "2026-12-01", "to": "2026-12-01"]).count == 1)
        #expect(try Self.days(["from": "2025-12-01", "to": "2026-12-01"]).count == 366, "the most")
        // The preset and the same days chosen are one range.
        let preset = try Self.days(["days": "7"])
        #expect(try Self.days(["from": "2026-11-25", "to": "2026-12-01"]) == preset)
        #expect(try Self.days([:]).count == 30)
    }

    @Test(arguments: [
        (["from": "2025-11-30", "to": "2026-12-01"], "the most is 366"),
        (["from": "2026-12-02", "to": "2026-12-01"], "from must not be after to"),
        (["from": "2026-12-01"], "from and to go together"),
        (["to": "2026-12-01"], "from and to go together"),
        (["from": "2026-12-01", "to": "2026-12-01", "days": "7"], "not both"),
        (["from": "2023-02-29", "to": "2023-03-01"], "from must be a date"),
        (["from": "2026-1-01", "to": "2026-12-01"], "from must be a date"),
        (["from": "2026-13-01", "to": "2026-12-01"], "from must be a date"),
        (["from": "１２３４-01-01", "to": "2026-12-01"], "from must be a date"),
        (["from": "1969-12-31", "to": "2026-12-01"], "from must be a date"),
        (["from": "2026-12-01", "to": "2026-12-01T00:00:00Z"], "to must be a date"),
        (["from": "2026-12-01", "to": ""], "to must be a date"),
        (["from": "2026-12-01", "to": "+026-12-01"], "to must be a date"),
        (["days": "8"], "days must be 7, 30 or 90"),
    ])
    func aBadRangeIsA400SayingWhy(_ query: [String: String], _ reason: String) throws {
        do {
            _ = try Self.days(query)
            Issue.record("\(query) was accepted")
        } catch {
            #expect(error.status == 400)
            #expect(error.code == "invalid_request")
            #expect(error.message.contains(reason), "\(error.message)")
        }
    }
}
