import Foundation
@testable import Tally
import Testing

/// ``ServerLink/appAccountToken(for:)``: the same UUID for the same `appUserId` on every device.
@Suite("appAccountToken derived from appUserId")
struct AppAccountTokenTests {
    @Test func fnv1a128MatchesTheReferenceValues() {
        let hex = { (bytes: [UInt8]) in bytes.map { String(format: "%02x", $0) }.joined() }
        #expect(hex(FNV1a128.hash([])) == "6c62272e07bb014262b821756295c58d")  // the offset basis
        #expect(hex(FNV1a128.hash(Array("a".utf8))) == "d228cb696f1a8caf78912b704e4a8964")
    }

    @Test func theTokenIsTheHashAsAVersion8UUID() {
        // FNV-1a-128 of "tally.appAccountToken:user-1" is df163c9d8f2e524fcf93b0b3fc75a173 (computed apart);
        // the version nibble becomes 8 and the variant bits 10.
        #expect(ServerLink.appAccountToken(for: "user-1").uuidString.lowercased()
            == "df163c9d-8f2e-824f-8f93-b0b3fc75a173")
        #expect(ServerLink.appAccountToken(for: "user-2") != ServerLink.appAccountToken(for: "user-1"))
        let given = UUID()
        #expect(ServerLink(url: URL(string: "http://127.0.0.1:1")!, publicKey: "k", appUserId: "user-1",
                           appAccountToken: given).appAccountToken == given)
    }

    @Test func backOffDoublesUpToTheCap() {
        let policy = RetryPolicy(initialDelay: 0.1, maxDelay: 1)
        #expect((0..<6).map(policy.delay(attempt:)) == [0.1, 0.2, 0.4, 0.8, 1, 1])
        #expect(policy.delay(attempt: 10_000) == 1)
    }
}
