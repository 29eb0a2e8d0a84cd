import Foundation
@testable import TallyStorage
import Testing

@Suite("Webhook event ids")
struct WebhookEventIdTests {
    @Test func anIdIsAUUIDv7AfterEvtAndIdsOfLaterMillisecondsSortAfter() throws {
        let first = WebhookEventId.make(milliseconds: 1_796_014_800_000)
        let second = WebhookEventId.make(milliseconds: 1_796_014_800_001)
        for id in [first, second] {
            #expect(id.hasPrefix("evt_"))
            let uuid = try #require(UUID(uuidString: String(id.dropFirst(4))), "\(id)")
            #expect(uuid.uuidString.lowercased() == String(id.dropFirst(4)))
            #expect(Array(id)[4 + 14] == "7", "version 7: \(id)")
        }
        #expect(first.hasPrefix("evt_01a22ad2-fc80"), "the milliseconds lead, big-endian: \(first)")
        #expect(first < second, "time-ordered as bytes")
        #expect(WebhookEventId.make(milliseconds: 5) != WebhookEventId.make(milliseconds: 5), "random past the time")
    }
}
