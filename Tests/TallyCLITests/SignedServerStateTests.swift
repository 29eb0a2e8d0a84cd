import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Tally
import TallyCore
import Testing

/// Signed customer state (issue 27, item 3): a real `tally serve` with a signing key (`tally serve signing-key`)
/// signs every customer answer; the engine, pinning its public key, believes only answers signed for its own
/// request and a `server-state.json` whose kept signature still verifies.
@Suite("Signed customer state")
struct SignedServerStateTests {
    typealias Scratch = ServerLinkTests.Scratch

    /// The saved state's file of an app directory.
    static func stateFile(_ scratch: Scratch, _ app: String) -> URL {
        scratch.app(app).appendingPathComponent("server-state.json")
    }

    /// Rewrites `server-state.json` the way an attacker with the device's files would: `coins` set to `coins` in the
    /// decoded `state` and in the kept answer's body (its signature left as it was).
    static func forgeCoins(_ file: URL, to coins: Int) throws {
        var saved = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        var state = try #require(saved["state"] as? [String: Any])
        var balances = state["balances"] as? [String: Any] ?? [:]
        balances["coins"] = coins
        state["balances"] = balances
        saved["state"] = state
        if var answer = saved["answer"] as? [String: Any], let text = answer["body"] as? String,
           let body = Data(base64Encoded: text) {
            var envelope = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
            var customer = try #require(envelope["customer"] as? [String: Any])
            customer["balances"] = ["coins": coins]
            envelope["customer"] = customer
            answer["body"] = try JSONSerialization.data(withJSONObject: envelope).base64EncodedString()
            saved["answer"] = answer
        }
        try JSONSerialization.data(withJSONObject: saved).write(to: file)
    }

    @Test func anEditedSavedStateIsIgnoredWhileTheServerIsDownAndReported() async throws {
        let scratch = try Scratch()
        let server = try LinkedServer(trusting: scratch.sandbox, signing: true)
        let key = try #require(server.serverPublicKey)
        var store = try await scratch.store(server, user: "user-1", serverPublicKey: key)
        _ = try await store.purchase(ServerLinkTests.coins)
        #expect(await store.stateSource == .server)
        #expect(await store.balance("coins") == 10)
        #expect(await !store.diagnostics.contains { $0.kind == .serverAnswersUnsigned })
        await store.close()
        server.stop()

        // Untouched, the signed file is believed while the server is down.
        store = try await scratch.store(server, user: "user-1", serverPublicKey: key)
        #expect(await store.stateSource == .savedServerState)
        #expect(await store.balance("coins") == 10)
        await store.close()

        let file = Self.stateFile(scratch, "default-default")
        try Self.forgeCoins(file, to: 999_999)
        store = try await scratch.store(server, user: "user-1", serverPublicKey: key)
        // Not the forged 999999: the device's own view instead (its purchases carrying the customer's minted token
        // or waiting to be posted; this one carries none, so none show).
        #expect(await store.balance("coins") != 999_999, "the edited server-state.json was believed")
        #expect(await store.stateSource == .localCache)
        #expect(await store.serverStateDate == nil)
        #expect(await store.diagnostics.contains { $0.kind == .savedServerStateUnverified })
        await store.close()

        // The same file without the pin (today's links): the edit is what shows, and the store says it is unchecked.
        let unpinned = try await scratch.store(server, user: "user-1")
        #expect(await unpinned.balance("coins") == 999_999)
        #expect(await unpinned.diagnostics.contains { $0.kind == .serverAnswersUnsigned })
        await unpinned.close()
    }

    @Test func aStateFileCopiedFromAnotherCustomerOrAnotherServerIsIgnored() async throws {
        let scratch = try Scratch()
        let server = try LinkedServer(trusting: scratch.sandbox, signing: true)
        let key = try #require(server.serverPublicKey)
        // The attacker's own rich customer "rich" on this server; the victim device is linked as "poor".
        let rich = try await scratch.store(server, user: "rich", account: "rich-id", device: "rich",
                                           serverPublicKey: key)
        _ = try await rich.purchase(ServerLinkTests.coins)
        _ = try await rich.purchase(ServerLinkTests.premium)
        await rich.close()
        var poor = try await scratch.store(server, user: "poor", account: "poor-id", device: "poor",
                                           serverPublicKey: key)
        #expect(await poor.stateSource == .server)
        await poor.close()
        server.stop()

        // rich's genuinely signed file, renamed as poor's.
        let target = Self.stateFile(scratch, "poor-id-poor")
        var saved = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: Self.stateFile(scratch, "rich-id-rich"))) as? [String: Any])
        saved["appUserId"] = "poor"
        try JSONSerialization.data(withJSONObject: saved).write(to: target)
        poor = try await scratch.store(server, user: "poor", account: "poor-id", device: "poor", serverPublicKey: key)
        #expect(await poor.balance("coins") == 0, "another customer's state was shown")
        #expect(await poor.isEntitled("premium") == false)
        #expect(await poor.diagnostics.contains {
            $0.kind == .savedServerStateUnverified && $0.message.contains("another customer")
        })
        await poor.close()

        // A file signed by another server (its own key) for a customer of the same id, pointed at this server.
        let other = try LinkedServer(trusting: scratch.sandbox, signing: true)
        let elsewhere = try await scratch.store(other, user: "poor", account: "rich-id", device: "rich",
                                                serverPublicKey: other.serverPublicKey)
        _ = try await elsewhere.purchase(ServerLinkTests.coins)
        #expect(await elsewhere.balance("coins") == 10)
        await elsewhere.close()
        other.stop()
        saved = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: Self.stateFile(scratch, "rich-id-rich"))) as? [String: Any])
        #expect(saved["appUserId"] as? String == "poor")
        saved["serverURL"] = server.url.absoluteString
        try JSONSerialization.data(withJSONObject: saved).write(to: target)
        poor = try await scratch.store(server, user: "poor", account: "poor-id", device: "poor", serverPublicKey: key)
        #expect(await poor.balance("coins") == 0, "another server's state was shown")
        #expect(await poor.diagnostics.contains {
            $0.kind == .savedServerStateUnverified && $0.message.contains("does not verify")
        })
        await poor.close()
    }

    @Test func anOlderAnswerReplayedForAnotherNonceIsRefused() async throws {
        let scratch = try Scratch()
        let server = try LinkedServer(trusting: scratch.sandbox, signing: true)
        let key = try #require(server.serverPublicKey)
        let proxy = try SlowProxy(to: server.url, in: scratch.harness.root)
        // The first GET (no coins yet) is captured by the proxy.
        let store = try await scratch.store(server, user: "user-1", url: proxy.url, serverPublicKey: key)
        #expect(await store.stateSource == .server)
        #expect(await store.balance("coins") == 0)
        _ = try await store.purchase(ServerLinkTests.coins)
        #expect(await store.balance("coins") == 10)
        #expect(await store.stateSource == .server)

        try proxy.replay()
        #expect(await store.refresh().balance("coins") == 10, "the replayed older answer was believed")
        #expect(await store.stateSource == .savedServerState)
        #expect(await store.diagnostics.contains {
            $0.kind == .serverAnswerUnverified && $0.message.contains("replayed")
        })
        await store.close()

        // The same replay to a link without the pin rolls its state back: what the nonce prevents.
        let unpinned = try await scratch.store(server, user: "user-1", url: proxy.url)
        #expect(await unpinned.balance("coins") == 0)
        await unpinned.close()
    }

    @Test func theServersSignatureVerifiesIndependentlyWithAppleStyleES256() async throws {
        let scratch = try Scratch()
        let server = try LinkedServer(trusting: scratch.sandbox, signing: true)
        let key = try #require(server.serverPublicKey)
        let nonce = "bm9uY2UtZm9yLXB5dGhvbg"
        var request = URLRequest(url: server.url.appendingPathComponent("v1/customers/user-1"))
        request.setValue("Bearer \(server.publicKey)", forHTTPHeaderField: "Authorization")
        request.setValue(nonce, forHTTPHeaderField: "Tally-Nonce")
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let (body, response) = try await session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 200)
        let header = try #require(http.value(forHTTPHeaderField: "Tally-Signature"))
        #expect(header.hasPrefix("v1;t=") && header.contains(";n=\(nonce);s="))

        let bodyFile = scratch.harness.root.appendingPathComponent("answer.json")
        try body.write(to: bodyFile)
        #expect(try Self.python(key, header, nonce, bodyFile) == "valid")
        #expect(try Self.python(key, header, "another-nonce", bodyFile).hasPrefix("invalid"))
        var tampered = body
        tampered[tampered.count - 2] ^= 0x01
        try tampered.write(to: bodyFile)
        #expect(try Self.python(key, header, nonce, bodyFile).hasPrefix("invalid"))
    }

    @Test func aPinnedKeyThatIsNoP256KeyRefusesEveryAnswerAndSaysSo() async throws {
        let scratch = try Scratch()
        let server = try LinkedServer(trusting: scratch.sandbox, signing: true)
        let store = try await scratch.store(server, user: "user-1", serverPublicKey: Data("not a key".utf8))
        #expect(await store.stateSource == .localCache)
        #expect(await store.diagnostics.contains {
            $0.kind == .serverAnswerUnverified && $0.message.contains("is not a P-256 public key")
        })
        await store.close()
    }

    /// verify_answer_signature.py's verdict.
    static func python(_ key: Data, _ header: String, _ nonce: String, _ body: URL) throws -> String {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("verify_answer_signature.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, key.base64EncodedString(), header, nonce, body.path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
