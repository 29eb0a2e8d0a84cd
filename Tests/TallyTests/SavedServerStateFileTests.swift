import Foundation
import Testing
@testable import Tally
import TallyCore

/// `server-state.json`: the cache of the server's last state, read only for its own customer (ids as bytes),
/// shown without the entitlements that expired since.
@Suite("The saved server state file")
struct SavedServerStateFileTests {
    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tally-saved-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static let savedAt = Date(timeIntervalSince1970: 1_780_000_000)

    static func state() -> CustomerState {
        CustomerState(date: savedAt, entitlements: [
            .init(feature: "premium", productIds: ["market.premium"], expiresDate: nil),
            .init(feature: "pro", productIds: ["market.pro.monthly"], expiresDate: savedAt.addingTimeInterval(3_600)),
        ], nonConsumables: ["market.premium"], balances: ["coins": Decimal(string: "10.5")!])
    }

    @Test func itRoundTripsExactlyForItsOwnCustomerOnly() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let nfc = "caf\u{E9}", nfd = "cafe\u{301}"
        try SavedServerState(appUserId: nfc, savedAt: Self.savedAt, state: Self.state()).write(in: directory)
        let read = try #require(SavedServerState.read(in: directory, for: nfc))
        let saved = try read.get()
        #expect(saved.state == Self.state())
        #expect(saved.savedAt == Self.savedAt)
        #expect(saved.state.balance("coins") == Decimal(string: "10.5")!)
        // Equal as Swift Strings, another customer as bytes.
        #expect(nfc == nfd)
        #expect(SavedServerState.read(in: directory, for: nfd) == nil)
    }

    @Test func anEntitlementThatExpiredSinceIsNotShown() {
        let before = SavedServerState.shown(Self.state(), at: Self.savedAt.addingTimeInterval(60))
        #expect(before.entitlements.map(\.feature) == ["premium", "pro"])
        let after = SavedServerState.shown(Self.state(), at: Self.savedAt.addingTimeInterval(3_600))
        #expect(after.entitlements.map(\.feature) == ["premium"])
        #expect(after.balance("coins") == Decimal(string: "10.5")!)
    }

    @Test func aNewerFormatIsRefusedNotShown() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var saved = SavedServerState(appUserId: "u", savedAt: Self.savedAt, state: Self.state())
        saved.formatVersion = 99
        try saved.write(in: directory)
        guard case .failure(let problem)? = SavedServerState.read(in: directory, for: "u") else {
            Issue.record("a format-99 file was read")
            return
        }
        #expect(problem.message.contains("format version 99"))
    }
}

