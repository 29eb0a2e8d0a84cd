import Foundation
import Testing
@testable import TallyVerify

@Suite("Receipt dates")
struct ReceiptDateTests {
    static let reference = Date(timeIntervalSince1970: 1_595_439_195)  // 2020-07-22T17:33:15Z

    @Test("RFC 3339 with Z, ±hhmm and ±hh:mm offsets name the same instant", arguments: [
        "2020-07-22T17:33:15Z", "2020-07-22T18:33:15+0100", "2020-07-22T18:33:15+01:00",
        "2020-07-22T12:03:15-0530", "2020-07-22T17:33:15+0000",
    ])
    func formats(text: String) throws {
        #expect(try ReceiptDate.parse(text) == Self.reference)
    }

    @Test("fractional seconds, leap days and far years parse")
    func edges() throws {
        #expect(try ReceiptDate.parse("2020-07-22T17:33:15.250Z") == Self.reference.addingTimeInterval(0.25))
        #expect(try ReceiptDate.parse("2024-02-29T00:00:00Z") == Date(timeIntervalSince1970: 1_709_164_800))
        #expect(try ReceiptDate.parse("4001-01-01T00:00:00Z") == Date(timeIntervalSince1970: 64_092_211_200))
        #expect(try ReceiptDate.parse("1969-12-31T23:59:59Z") == Date(timeIntervalSince1970: -1))
    }

    @Test("an empty string is no date")
    func empty() throws {
        #expect(try ReceiptDate.parse("") == nil)
    }

    @Test("malformed dates fail with a detail, never crash", arguments: [
        "2020-07-22", "2020-07-22 17:33:15Z", "2020-13-01T00:00:00Z", "2023-02-29T00:00:00Z",
        "2020-07-22T24:00:00Z", "2020-07-22T17:33:15", "2020-07-22T17:33:15+1", "2020-07-22T17:33:15+01:0",
        "2020-07-22T17:33:15+2500", "2020-07-22T17:33:15.Z", "2020-07-22T17:33:15Zjunk", "yyyy-MM-ddTHH:mm:ssZ",
        "２０２０-07-22T17:33:15Z", "-020-07-22T17:33:15Z", "2020-00-10T00:00:00Z", "2020-07-00T00:00:00Z",
    ])
    func malformed(text: String) {
        do {
            _ = try ReceiptDate.parse(text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(!error.detail.isEmpty)
        }
    }
}
