import Foundation
import TallyCore
import Testing
@testable import TallyServer

@Suite("JSON output")
struct JSONWriterTests {
    @Test("dates are ISO 8601 UTC with milliseconds, before 1970 too", arguments: [
        (Int64(0), "1970-01-01T00:00:00.000Z"), (1_796_000_000_123, "2026-11-30T00:53:20.123Z"),
        (-1, "1969-12-31T23:59:59.999Z"), (951_782_400_000, "2000-02-29T00:00:00.000Z"),
        (253_402_300_799_999, "9999-12-31T23:59:59.999Z"),
    ])
    func dates(milliseconds: Int64, text: String) {
        #expect(ISO8601Milliseconds.string(Date(millisecondsSince1970: milliseconds)) == text)
    }

    @Test("strings are escaped so any id round-trips through a JSON parser")
    func escaping() throws {
        let hostile = "q\"b\\s/n\nr\rt\t\u{0}\u{1F}é😀"
        let amount = try #require(Decimal(string: "12.50", locale: Locale(identifier: "en_US_POSIX")))
        var writer = JSONWriter()
        writer.beginObject()
        writer.key(hostile)
        writer.string(hostile)
        writer.key("n")
        writer.decimal(amount)
        writer.key("a")
        writer.beginArray()
        writer.null()
        writer.bool(true)
        writer.integer(-3)
        writer.endArray()
        writer.endObject()
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(writer.bytes)) as? [String: Any])
        #expect(parsed[hostile] as? String == hostile)
        #expect(String(decoding: writer.bytes, as: UTF8.self).contains(#""n":12.5,"a":[null,true,-3]"#))
    }
}
