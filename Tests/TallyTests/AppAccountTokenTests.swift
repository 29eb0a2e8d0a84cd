import Foundation
@testable import Tally
import Testing

/// The engine's `appAccountToken`s: an app's own token on the link, else the server's minted one kept per server
/// and customer in `account-tokens.json`; never one derived from the `appUserId`.
@Suite("appAccountToken: the app's own or the server's minted one")
struct AppAccountTokenTests {
    @Test func aLinkCarriesNoTokenUnlessTheAppGivesOne() {
        let url = URL(string: "http://127.0.0.1:1")!
        #expect(ServerLink(url: url, publicKey: "k", appUserId: "user-1").appAccountToken == nil)
        let given = UUID()
        #expect(ServerLink(url: url, publicKey: "k", appUserId: "user-1", appAccountToken: given).appAccountToken == given)
    }

    @Test func keptTokensAreNamedByServerAndCustomerAsBytesAndBounded() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tokens-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = URL(string: "https://api.example.com")!, staging = URL(string: "https://staging.example.com")!
        #expect(SavedAccountTokens.read(in: directory).tokens.isEmpty, "no file: nothing kept")
        var saved = SavedAccountTokens()
        let token = UUID(), other = UUID()
        saved.set(token, server: server, appUserId: "caf\u{e9}")
        saved.set(other, server: server, appUserId: "cafe\u{301}")
        try saved.write(in: directory)
        let read = SavedAccountTokens.read(in: directory)
        #expect(read.token(server: server, appUserId: "caf\u{e9}") == token)
        #expect(read.token(server: server, appUserId: "cafe\u{301}") == other, "ids compare as bytes")
        #expect(read.token(server: staging, appUserId: "caf\u{e9}") == nil, "another server's customer is another")
        for index in 0..<100 { saved.set(UUID(), server: server, appUserId: "u\(index)") }
        #expect(saved.tokens.count == SavedAccountTokens.maximumEntries)
        #expect(saved.token(server: server, appUserId: "caf\u{e9}") == nil, "the oldest dropped")
        try Data("{not json".utf8).write(to: directory.appendingPathComponent(SavedAccountTokens.fileName))
        #expect(SavedAccountTokens.read(in: directory).tokens.isEmpty, "unreadable: asked again")
    }

    @Test func backOffDoublesUpToTheCap() {
        let policy = RetryPolicy(initialDelay: 0.1, maxDelay: 1)
        #expect((0..<6).map(policy.delay(attempt:)) == [0.1, 0.2, 0.4, 0.8, 1, 1])
        #expect(policy.delay(attempt: 10_000) == 1)
    }
}
