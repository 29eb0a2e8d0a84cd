import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `tally sandbox serve` delivers the sandbox's App Store Server Notifications to a real HTTP receiver (a
/// Python `http.server` child that checks each with Apple's `SignedDataVerifier`): retries on the sandbox clock,
/// one attempt with retries off, nothing lost or marked sent wrongly across a SIGKILL, and Apple's client reads
/// the history and the test notification back.
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["CI"] == "true"
                             || ProcessInfo.processInfo.environment["TALLY_SKIP_APPLE_LIBRARY"] != "1",
                             "TALLY_SKIP_APPLE_LIBRARY=1 (ignored under CI=true)"))
struct NotificationDeliveryTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    /// The receiver child and its log of answered posts.
    final class Receiver {
        let process = Process()
        let log: URL
        private(set) var url = ""

        /// `fails` posts answered 500 first; with `failing`, only posts of that notification type count toward them
        /// (others, such as ``NotificationDeliveryTests/deliverMarker(_:_:)``'s, are answered 200).
        init(_ sandbox: MarketSandbox, fails: Int, delay: Double = 0, failing: String? = nil) throws {
            let portFile = sandbox.directory.appendingPathComponent("receiver-\(UUID().uuidString).port")
            log = sandbox.directory.appendingPathComponent("receiver-\(UUID().uuidString).log")
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", NotificationDeliveryTests.folder.appendingPathComponent("notification_receiver.py").path,
                                 portFile.path, log.path, try sandbox.rootDER(), "com.example.market", String(fails), String(delay)]
                + (failing.map { [$0] } ?? [])
            try process.run()
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline {
                if let port = try? String(contentsOf: portFile, encoding: .utf8), !port.isEmpty {
                    url = "http://127.0.0.1:\(port)/apple"
                    return
                }
                Thread.sleep(forTimeInterval: 0.05)
            }
            stop()
            throw CLITestError("the receiver did not start")
        }

        /// Every post answered so far.
        var posts: [[String: Any]] {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        }

        /// Waits until `condition` holds for the posts (at most `seconds`, generous for a loaded machine).
        @discardableResult
        func wait(seconds: Double = 60, _ condition: ([[String: Any]]) -> Bool) -> [[String: Any]] {
            let deadline = Date().addingTimeInterval(seconds)
            var seen = posts
            while !condition(seen), Date() < deadline {
                Thread.sleep(forTimeInterval: 0.1)
                seen = posts
            }
            return seen
        }

        /// SIGKILL: the test process blocks SIGTERM (its children inherit the mask), so a polite stop would hang.
        func stop() {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// `tally sandbox notifications --json`.
    static func recorded(_ sandbox: MarketSandbox) throws -> [[String: Any]] {
        let out = try sandbox.run("notifications", "--json")
        guard out.status == 0, let list = try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]] else {
            throw CLITestError("notifications --json: \(out.stderr)")
        }
        return list
    }

    static func results(_ notification: [String: Any]) -> [String] {
        (notification["sendAttempts"] as? [[String: Any]] ?? []).compactMap { $0["sendAttemptResult"] as? String }
    }

    /// The receiver's posts of notification type `type`.
    static func posts(_ receiver: Receiver, of type: String) -> [[String: Any]] {
        receiver.posts.filter { $0["type"] as? String == type }
    }

    /// Makes a notification of its own (a coin purchase: `ONE_TIME_CHARGE`) and waits until the receiver answered
    /// it. The sender posts every notification due at the sandbox's now in `signedDate` order, so once this later
    /// one arrived, whatever was due at the present sandbox time was posted before it: what has not arrived was
    /// not due. The event that must come, instead of a fixed wait for nothing to happen.
    static func deliverMarker(_ sandbox: MarketSandbox, _ receiver: Receiver) throws {
        let before = posts(receiver, of: "ONE_TIME_CHARGE").count
        #expect(try sandbox.run("buy", "market.coins.10").status == 0)
        receiver.wait { list in list.filter { $0["type"] as? String == "ONE_TIME_CHARGE" }.count > before }
        try #require(posts(receiver, of: "ONE_TIME_CHARGE").count == before + 1, "the marker notification never arrived")
    }

    /// Waits until the recorded notifications satisfy `condition`.
    @discardableResult
    static func waitRecorded(_ sandbox: MarketSandbox, seconds: Double = 60,
                             _ condition: ([[String: Any]]) -> Bool) throws -> [[String: Any]] {
        let deadline = Date().addingTimeInterval(seconds)
        var seen = try recorded(sandbox)
        while !condition(seen), Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            seen = try recorded(sandbox)
        }
        return seen
    }

    @Test func aReceiverFailingTwiceGetsThreeAttemptsOnTheSandboxClockAndOneDelivery() throws {
        let sandbox = try MarketSandbox()
        let receiver = try Receiver(sandbox, fails: 2, failing: "SUBSCRIBED")
        defer { receiver.stop() }
        #expect(try sandbox.run("set", "notification-url", receiver.url).status == 0)
        let served = try SandboxAPITests.Served(sandbox)
        defer { #expect(served.stop() == 0, "SIGTERM stops it cleanly") }
        func subscribed(_ list: [[String: Any]]) -> [[String: Any]] {
            list.filter { ($0["notificationType"] ?? $0["type"]) as? String == "SUBSCRIBED" }
        }
        // Made by another tally process while serve runs: delivered without restarting it.
        #expect(try sandbox.run("buy", "market.pro.monthly").status == 0)
        var posts = receiver.wait { $0.count >= 1 }
        try #require(posts.count == 1, "the first attempt: \(posts)")
        var list = try Self.waitRecorded(sandbox) { Self.results($0.first ?? [:]).count == 1 }
        #expect(Self.results(list[0]) == ["UNSUCCESSFUL_HTTP_RESPONSE_CODE"] && list[0]["status"] as? String == "pending")

        // The retry is due 1 hour after the attempt, on the sandbox clock: not before.
        Thread.sleep(forTimeInterval: 1)
        #expect(try sandbox.run("advance", "59m").status == 0)
        try Self.deliverMarker(sandbox, receiver)
        #expect(Self.posts(receiver, of: "SUBSCRIBED").count == 1, "no retry before its hour")
        #expect(try sandbox.run("advance", "1m").status == 0)
        posts = receiver.wait { subscribed($0).count >= 2 }
        #expect(subscribed(posts).count == 2)
        #expect(try sandbox.run("advance", "11h").status == 0)
        try Self.deliverMarker(sandbox, receiver)
        #expect(Self.posts(receiver, of: "SUBSCRIBED").count == 2, "the second retry waits 12 hours")
        #expect(try sandbox.run("advance", "1h").status == 0)
        posts = subscribed(receiver.wait { subscribed($0).count >= 3 })
        list = subscribed(try Self.waitRecorded(sandbox) { subscribed($0).first?["status"] as? String == "delivered" })

        #expect(posts.map { $0["code"] as? Int } == [500, 500, 200])
        #expect(posts.allSatisfy { $0["verified"] as? Bool == true }, "Apple's verifier accepts each: \(posts)")
        #expect(posts.allSatisfy { $0["contentType"] as? String == "application/json" })
        #expect(Set(posts.compactMap { $0["uuid"] as? String }).count == 1, "one notificationUUID on every attempt")
        #expect(Set(posts.compactMap { $0["signedDate"] as? Int }).count == 1, "one signedDate on every attempt")
        #expect(posts.first?["type"] as? String == "SUBSCRIBED" && posts.first?["subtype"] as? String == "INITIAL_BUY")
        #expect(list.count == 1 && list[0]["notificationUUID"] as? String == posts.first?["uuid"] as? String)
        #expect(Self.results(list[0]) == ["UNSUCCESSFUL_HTTP_RESPONSE_CODE", "UNSUCCESSFUL_HTTP_RESPONSE_CODE", "SUCCESS"])
        #expect(list[0]["status"] as? String == "delivered" && list[0]["nextAttemptDate"] == nil)
        Thread.sleep(forTimeInterval: 1)
        #expect(try sandbox.run("advance", "3d").status == 0)
        try Self.deliverMarker(sandbox, receiver)
        #expect(Self.posts(receiver, of: "SUBSCRIBED").count == 3, "delivered: never sent again")
    }

    @Test func withRetriesOffOneAttemptIsMadeAndNoResponseIsRecorded() throws {
        let sandbox = try MarketSandbox()
        // A port nothing listens on: bound, then closed.
        let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(probe, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(probe, $0, &length) } }
        let port = UInt16(bigEndian: address.sin_port)
        close(probe)
        #expect(try sandbox.run("set", "notification-url", "http://127.0.0.1:\(port)/apple").status == 0)
        #expect(try sandbox.run("set", "notification-retries", "off").status == 0)
        let served = try SandboxAPITests.Served(sandbox)
        defer { #expect(served.stop() == 0) }
        #expect(try sandbox.run("buy", "market.coins.10").status == 0)
        var list = try Self.waitRecorded(sandbox) { $0.first?["status"] as? String == "failed" }
        #expect(Self.results(list.first ?? [:]) == ["NO_RESPONSE"], "\(list)")
        #expect(list.first?["notificationType"] as? String == "ONE_TIME_CHARGE")
        let first = try #require(list.first?["notificationUUID"] as? String)
        #expect(try sandbox.run("advance", "7d").status == 0)
        // A later notification's one attempt, recorded: the sender made its pass at the advanced sandbox time, and
        // a retry of the first, had one been due, would have been posted before it (signedDate order).
        #expect(try sandbox.run("buy", "market.coins.10").status == 0)
        list = try Self.waitRecorded(sandbox) { list in
            list.contains { $0["notificationUUID"] as? String != first && !Self.results($0).isEmpty }
        }
        let marker = list.first { $0["notificationUUID"] as? String != first }
        #expect(Self.results(marker ?? [:]) == ["NO_RESPONSE"], "the later notification's one attempt: \(list)")
        let again = list.first { $0["notificationUUID"] as? String == first }
        #expect(Self.results(again ?? [:]) == ["NO_RESPONSE"], "Apple's sandbox makes one attempt only")
    }

    @Test func aReceiverTooSlowForTheTimeoutIsTimedOut() throws {
        let sandbox = try MarketSandbox()
        let receiver = try Receiver(sandbox, fails: 0, delay: 3)
        defer { receiver.stop() }
        #expect(try sandbox.run("set", "notification-url", receiver.url).status == 0)
        let served = try SandboxAPITests.Served(sandbox, extra: ["--notification-timeout", "1"])
        defer { #expect(served.stop() == 0) }
        #expect(try sandbox.run("buy", "market.coins.10").status == 0)
        let list = try Self.waitRecorded(sandbox) { !Self.results($0.first ?? [:]).isEmpty }
        #expect(Self.results(list.first ?? [:]) == ["TIMED_OUT"], "\(list)")
        #expect(list.first?["status"] as? String == "pending", "retried later, on the sandbox clock")
    }

    @Test func aSIGKILLMidBurstLosesNothingAndMarksNothingSentThatWasNot() throws {
        let sandbox = try MarketSandbox()
        let receiver = try Receiver(sandbox, fails: 0, delay: 0.15)
        defer { receiver.stop() }
        #expect(try sandbox.run("set", "notification-url", receiver.url).status == 0)
        let burst = 12
        for _ in 0..<burst { #expect(try sandbox.run("buy", "market.coins.10").status == 0) }
        let first = try SandboxAPITests.Served(sandbox)
        receiver.wait { $0.count >= 3 }
        kill(first.process.processIdentifier, SIGKILL)
        first.process.waitUntilExit()
        let answered = Set(receiver.posts.compactMap { $0["uuid"] as? String })
        let afterKill = try Self.recorded(sandbox)
        #expect(afterKill.count == burst, "every notification recorded with its event")
        let delivered = afterKill.filter { $0["status"] as? String == "delivered" }.compactMap { $0["notificationUUID"] as? String }
        #expect(!delivered.isEmpty && delivered.count < burst, "killed mid-burst: \(delivered.count) of \(burst)")
        #expect(Set(delivered).isSubset(of: answered), "nothing marked delivered that the receiver did not answer")

        let second = try SandboxAPITests.Served(sandbox)
        defer { #expect(second.stop() == 0) }
        let list = try Self.waitRecorded(sandbox) { $0.allSatisfy { $0["status"] as? String == "delivered" } }
        #expect(list.count == burst && list.allSatisfy { $0["status"] as? String == "delivered" })
        let posts = receiver.posts
        #expect(Set(posts.compactMap { $0["uuid"] as? String }) == Set(list.compactMap { $0["notificationUUID"] as? String }),
                "every notification reached the receiver at least once")
        #expect(posts.allSatisfy { $0["verified"] as? Bool == true })
        let dates = posts.compactMap { $0["signedDate"] as? Int }
        #expect(dates == dates.sorted(), "sent in signedDate order")
    }

    @Test func applesClientReadsTheHistoryAndATestNotification() throws {
        let sandbox = try MarketSandbox()
        let receiver = try Receiver(sandbox, fails: 1)
        defer { receiver.stop() }
        #expect(try sandbox.run("set", "notification-url", receiver.url).status == 0)
        #expect(try sandbox.run("buy", "market.pro.monthly").status == 0)
        #expect(try sandbox.run("advance", "15d").status == 0)                // the trial week ends: a renewal
        #expect(try sandbox.run("buy", "market.coins.10", "--account", "other").status == 0)
        let key = try sandbox.run("api-key", "--json").json()
        let served = try SandboxAPITests.Served(sandbox)
        defer { #expect(served.stop() == 0) }
        let recorded = try Self.waitRecorded(sandbox) { $0.count == 3 && $0.allSatisfy { !Self.results($0).isEmpty } }
        let transactions = try sandbox.run("history", "--json").json()["transactions"] as? [[String: Any]] ?? []
        let subscription = try #require((transactions.first?["transaction"] as? [String: Any])?["transactionId"] as? String)

        let start = 1_767_258_000_000 - 1_000    // 2026-01-01T09:00:00Z, the sandbox's start
        let seen = try ApplePythonClient.run("apple_notification_client.py", [
            served.baseURL, key["privateKeyPath"] as? String ?? "", key["keyId"] as? String ?? "",
            key["issuerId"] as? String ?? "", "com.example.market", try sandbox.rootDER(), String(start),
            String(start + 30 * 86_400_000), subscription,
        ])
        let all = (seen["all"] as? [String: Any])?["items"] as? [[String: Any]] ?? []
        #expect(all.compactMap { $0["uuid"] as? String } == recorded.compactMap { $0["notificationUUID"] as? String })
        #expect(all.map { $0["type"] as? String } == ["SUBSCRIBED", "DID_RENEW", "ONE_TIME_CHARGE"], "\(all)")
        let firstAttempts = (all.first?["attempts"] as? [[Any]])?.compactMap { $0.last as? String }
        #expect(firstAttempts == ["UNSUCCESSFUL_HTTP_RESPONSE_CODE"], "sendAttempts as recorded: \(all)")
        #expect(((seen["renewals"] as? [String: Any])?["items"] as? [[String: Any]])?.count == 1)
        #expect(((seen["customer"] as? [String: Any])?["items"] as? [[String: Any]])?.count == 2, "the other account's is left out")
        let failures = (seen["failures"] as? [String: Any])?["items"] as? [[String: Any]] ?? []
        #expect(failures.compactMap { $0["uuid"] as? String } == [all.first?["uuid"] as? String].compactMap { $0 })
        #expect((seen["bothFilters"] as? [String: Any])?["code"] as? Int == 4_000_019)
        #expect((seen["tooEarly"] as? [String: Any])?["code"] as? Int == 4_000_012)
        #expect((seen["unknownTest"] as? [String: Any])?["code"] as? Int == 4_040_008)
        let test = seen["test"] as? [String: Any]
        #expect(test?["type"] as? String == "TEST", "\(seen)")
        #expect((test?["attempts"] as? [[Any]])?.compactMap { $0.last as? String } == ["SUCCESS"])
        #expect(receiver.posts.contains { $0["type"] as? String == "TEST" && $0["code"] as? Int == 200 })
    }

    /// A database of format 3 (order ids, no outbox: the layout before the notification outbox step).
    @Test func aDatabaseWithoutTheOutboxGainsItOnFirstOpen() throws {
        let sandbox = try MarketSandbox()
        #expect(try sandbox.run("buy", "market.coins.10").status == 0)
        let database = sandbox.directory.appendingPathComponent("sandbox.sqlite").path
        let downgrade = Process()
        downgrade.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        downgrade.arguments = ["python3", "-c", """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("DROP TABLE notifications"); db.execute("UPDATE store SET format = 3"); db.commit()
            """, database]
        try downgrade.run()
        downgrade.waitUntilExit()
        try #require(downgrade.terminationStatus == 0)
        #expect(try sandbox.run("set", "notification-url", "http://127.0.0.1:9/apple").status == 0)
        #expect(try sandbox.run("buy", "market.coins.10").status == 0)
        let list = try Self.recorded(sandbox)
        #expect(list.count == 1 && list.first?["notificationType"] as? String == "ONE_TIME_CHARGE", "\(list)")
        #expect(try sandbox.run("history").status == 0, "the rest of the sandbox is as it was")
    }
}
