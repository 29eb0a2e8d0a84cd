import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ServerProcessTests {
    /// The HTTP edge of `tally serve` (docs/server.md, *HTTP*): ambiguous framing, per-route body limits, HEAD and
    /// the graceful stop, each through a real process on loopback.
    @Suite struct HTTPEdge {
        static let post = "POST /v1/customers/edge/transactions HTTP/1.1\r\nHost: 127.0.0.1\r\n"

        /// (what, header fields, status, error code)
        static let refused: [(String, String, Int, String)] = [
            ("Transfer-Encoding: identity", "Transfer-Encoding: identity\r\n", 501, "unsupported_transfer_coding"),
            ("Transfer-Encoding: gzip, chunked", "Transfer-Encoding: gzip, chunked\r\n", 501,
             "unsupported_transfer_coding"),
            ("Transfer-Encoding: chunked with a trailing space", "Transfer-Encoding: chunked \r\n", 400,
             "malformed_request"),
            ("Content-Length and Transfer-Encoding", "Content-Length: 2\r\nTransfer-Encoding: chunked\r\n", 400,
             "malformed_request"),
            ("two different Content-Lengths", "Content-Length: 2\r\nContent-Length: 3\r\n", 400, "malformed_request"),
        ]

        @Test(arguments: 0..<refused.count)
        func anAmbiguousHeadGetsOneJSONErrorAtOnceAndTheConnectionCloses(_ index: Int) async throws {
            let (what, fields, status, code) = Self.refused[index]
            let fixture = try ServerFixture()
            let connection = try RawConnection(port: fixture.server.port, readTimeout: 10)
            let start = Date()
            try connection.send(Self.post + fields + "\r\n{}")
            let all = try connection.readToEnd()
            let elapsed = Date().timeIntervalSince(start)
            let text = String(decoding: all, as: UTF8.self)
            #expect(text.components(separatedBy: "HTTP/1.1 ").count == 2, "\(what): \(text)")
            #expect(elapsed < 5, "\(what): answered after \(elapsed) s")
            connection.putBack(all)
            let reply = try #require(try connection.readResponse(), "\(what): no answer")
            #expect(reply.status == status, "\(what): \(reply)")
            #expect(reply.errorCode == code, "\(what): \(reply)")
            #expect(reply.headers["connection"] == "close", "\(what): \(reply)")
            await expectHealthy(fixture.client, after: what)
        }

        @Test func aSignedTransactionBodyAboveItsRouteLimitIs413BeforeTheBodyIsSent() async throws {
            let fixture = try ServerFixture()
            let connection = try RawConnection(port: fixture.server.port, readTimeout: 10)
            try connection.send(Self.post + "Authorization: Bearer \(fixture.keys.publicKey)\r\n"
                + "Content-Type: application/json\r\nContent-Length: 65537\r\n\r\n")
            let reply = try #require(try connection.readResponse())
            #expect(reply.status == 413, "\(reply)")
            #expect(reply.errorCode == "body_too_large")
            #expect(try reply.error()["message"] as? String == "the body is larger than 65536 bytes")
            // A receipt may be larger: the same size is read and judged (not JSON here), not refused.
            let receipt = try RawConnection(port: fixture.server.port, readTimeout: 10)
            let body = "{\"receipt\":\"" + String(repeating: "A", count: 65_520) + "\"}"
            let answer = try receipt.request("POST", "/v1/customers/edge/receipts", key: fixture.keys.publicKey,
                                             body: Data(body.utf8))
            #expect(answer.status != 413, "\(answer)")
        }

        @Test func aBodyOnAnUnknownPathIs404WithoutReadingIt() throws {
            let fixture = try ServerFixture()
            let connection = try RawConnection(port: fixture.server.port, readTimeout: 10)
            try connection.send("POST /nowhere HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n")
            let reply = try #require(try connection.readResponse())
            #expect(reply.status == 404, "\(reply)")
            #expect(reply.errorCode == "not_found")
        }

        @Test func aBodyOnAGetRouteIs413AndOnAWrongMethod405WithoutReadingIt() throws {
            let fixture = try ServerFixture()
            let get = try RawConnection(port: fixture.server.port, readTimeout: 10)
            try get.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10\r\n\r\n")
            let refused = try #require(try get.readResponse())
            #expect(refused.status == 413, "\(refused)")
            #expect(refused.errorCode == "body_too_large")
            let wrong = try RawConnection(port: fixture.server.port, readTimeout: 10)
            try wrong.send("PUT /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n")
            let reply = try #require(try wrong.readResponse())
            #expect(reply.status == 405, "\(reply)")
            #expect(reply.headers["allow"] == "GET, HEAD")
        }

        @Test func transferEncodingOnHTTP10Is400() throws {
            let fixture = try ServerFixture()
            let connection = try RawConnection(port: fixture.server.port, readTimeout: 10)
            try connection.send("POST /v1/customers/a/transactions HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n")
            let reply = try #require(try connection.readResponse())
            #expect(reply.status == 400, "\(reply)")
            #expect(reply.errorCode == "malformed_request")
        }

        @Test func aLowOpenFileLimitIsReportedAtStart() throws {
            let fixture = try ServerFixture()
            try fixture.server.killNow()
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -n 300 && exec \"$0\" serve --data \"$1\" --config \"$2\" --listen 127.0.0.1:0",
                                 TestPaths.tally.path, fixture.dataDirectory.path, fixture.configFile.path]
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            let stdout = OutputBuffer(reading: out.fileHandleForReading)
            let stderr = OutputBuffer(reading: err.fileHandleForReading)
            let port = stdout.wait(until: Date().addingTimeInterval(30), for: ServerProcess.port(in:))
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
            #expect(port != nil, "stdout: \(stdout.text) stderr: \(stderr.text)")
            #expect(process.terminationStatus == 0)
            _ = stderr.wait(until: Date().addingTimeInterval(5)) { _ in stderr.isClosed ? true : nil }
            #expect(stderr.text.contains("the open-file limit (ulimit -n) is 300"), "\(stderr.text)")
        }

        @Test(arguments: ["/healthz", "/v1/customers/head-user", "/metrics"])
        func headOnAGetRouteSendsTheGetsHeadersAndNoBody(_ path: String) throws {
            let fixture = try ServerFixture()
            let key = path.hasPrefix("/v1") ? "Authorization: Bearer \(fixture.keys.publicKey)\r\n" : ""
            let get = try RawConnection(port: fixture.server.port, readTimeout: 10)
            let getReply = try get.request("GET", path, key: path.hasPrefix("/v1") ? fixture.keys.publicKey : nil)
            #expect(getReply.status == 200)
            // HEAD, then a GET on the same connection: what follows the HEAD's head must be the GET's status line.
            let connection = try RawConnection(port: fixture.server.port, readTimeout: 10)
            try connection.send("HEAD \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(key)\r\n"
                + "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            let text = String(decoding: try connection.readToEnd(), as: UTF8.self)
            let parts = text.components(separatedBy: "\r\n\r\n")
            #expect(parts.count >= 2 && parts[0].hasPrefix("HTTP/1.1 200 "), "\(text)")
            #expect(parts.count >= 2 && parts[1].hasPrefix("HTTP/1.1 200 "), "HEAD sent a body: \(text)")
            let headFields = parts[0].lowercased()
            #expect(headFields.contains("content-type: \(getReply.headers["content-type"] ?? "?")"), "\(text)")
            if path != "/metrics" {  // the metrics text grows with every request
                #expect(headFields.contains("content-length: \(getReply.body.count)"), "\(text)")
            }
        }

        @Test func sigtermFinishesTheRequestInFlightRefusesNewConnectionsAndExits0() async throws {
            let fixture = try ServerFixture()
            let port = fixture.server.port
            let body = Array(#"{"signedTransaction":"not-a-jws"}"#.utf8)
            let connection = try RawConnection(port: port, readTimeout: 30)
            try connection.send(Self.post + "Authorization: Bearer \(fixture.keys.publicKey)\r\n"
                + "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n")
            try connection.send(body.prefix(5))
            // The head is in: the request is in flight. Ask for a stop (signal only; the exit is awaited below).
            usleep(300_000)
            kill(fixture.server.pid, SIGTERM)
            let deadline = Date().addingTimeInterval(10)
            while (try? RawConnection(port: port, readTimeout: 1)) != nil && Date() < deadline { usleep(20_000) }
            #expect(Date() < deadline, "the server still accepts connections 10 s after SIGTERM")
            #expect(fixture.server.isRunning, "the server exited with a request in flight")
            try connection.send(body.dropFirst(5))
            let reply = try #require(try connection.readResponse(), "the request in flight got no answer")
            #expect(reply.status == 400 || reply.status == 422, "\(reply)")
            #expect(reply.errorCode != nil, "\(reply)")
            #expect(reply.headers["connection"] == "close")
            #expect(try fixture.server.terminate(with: 0, timeout: 30) == 0)
        }

        /// SIGTERM while every write thread verifies signed transactions: the server exits 0 each time. Release
        /// builds used to abort in about one such stop in twenty ("double free or corruption": OpenSSL's exit
        /// handler freed its tables while write threads that had verified signatures were still ending); debug
        /// builds, which these tests run, did not show it in 80 cycles, so the cause is pinned down by
        /// `HTTPServerStopThreadTests` and this test guards the whole stop.
        @Test func sigtermDuringVerificationsExits0EveryTime() async throws {
            let fixture = try ServerFixture()
            var market = try fixture.market()
            let lanes = try (0..<16).map { lane in
                let (transaction, jws) = try market.buySigned("market.coins.10", account: "stop-\(lane)")
                // One customer per lane; each repeat is verified again, then answered as already recorded.
                let body = try APIClient.json(["signedTransaction": jws])
                return RequestBurst.Lane(appUserId: "stop-\(lane)", route: "/transactions",
                                         requests: Array(repeating: (transaction.transactionId, body), count: 20_000))
            }
            for cycle in 0..<12 {
                if cycle > 0 { try fixture.restart() }
                let burst = RequestBurst(lanes: lanes, port: fixture.server.port, key: fixture.keys.secretKey)
                try await burst.waitForAcknowledged(200)
                let status = try fixture.server.terminate(timeout: 30)
                #expect(status == 0, "cycle \(cycle): exit \(status); stderr: \(fixture.server.stderr.text)")
                await burst.finished()
                #expect(burst.unexpected.withLock { $0 }.isEmpty, "cycle \(cycle): \(burst.unexpected.withLock { $0.prefix(3) })")
            }
        }
    }
}
