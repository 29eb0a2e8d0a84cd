import Foundation
import Testing

extension ServerProcessTests {
    /// Bytes URLSession would never send: the server answers 4xx or closes, and keeps serving others.
    @Suite struct RawSockets {
        static let garbage: [(String, [UInt8])] = [
            ("random bytes", (0..<2_048).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) } + Array("\r\n\r\n".utf8)),
            ("a request line without a version", Array("GET\r\n\r\n".utf8)),
            ("a request line with spaces only", Array("   \r\n\r\n".utf8)),
            ("an unknown HTTP version", Array("GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n".utf8)),
            ("a negative Content-Length", Array("POST /v1/customers/a/transactions HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n{}".utf8)),
            ("a 300 KB header", Array("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "b", count: 300_000))\r\n\r\n".utf8)),
            ("NUL bytes in the request line", Array("GET /heal\u{0}thz HTTP/1.1\r\nHost: x\r\n\r\n".utf8)),
        ]

        /// The server may answer 4xx/5xx, close, or wait (its connection timeout); it must never answer 2xx.
        @Test func garbageGetsAnErrorOrAClosedConnection() async throws {
            let fixture = try ServerFixture()
            for (what, bytes) in Self.garbage {
                let connection = try RawConnection(port: fixture.server.port, readTimeout: 10)
                try? connection.send(bytes)
                let reply = try? connection.readResponse()
                if let reply {
                    #expect((400..<600).contains(reply.status), "\(what) got \(reply)")
                }
                connection.close()
                await expectHealthy(fixture.client, after: what)
            }
        }

        @Test func aHalfRequestThenCloseStoresNothing() async throws {
            let fixture = try ServerFixture()
            var market = try fixture.market()
            let (_, jws) = try market.buySigned("market.premium", account: "gil")
            let body = Array(try APIClient.json(["signedTransaction": jws]))
            let connection = try RawConnection(port: fixture.server.port)
            try connection.send("POST /v1/customers/gil/transactions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Authorization: Bearer \(fixture.keys.publicKey)\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.count)\r\n\r\n")
            try connection.send(body.prefix(body.count / 2))
            connection.close()
            await expectHealthy(fixture.client, after: "half a request, then close")
            let state = try await fixture.client.customer("gil")
            #expect(JSONFields.nonConsumables(state).isEmpty, "half a body was acted on")
        }

        @Test func aRequestSentByteByByteIsAnswered() async throws {
            let fixture = try ServerFixture()
            let connection = try RawConnection(port: fixture.server.port)
            for byte in "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8 {
                try connection.send([byte])
                usleep(2_000)
            }
            let reply = try #require(try connection.readResponse())
            #expect(reply.status == 200, "\(reply)")
            #expect(try reply.json()["status"] as? String == "ok")
        }

        @Test func idleHalfOpenConnectionsDoNotBlockOthers() async throws {
            var options = ServerOptions()
            options.threads = 2
            let fixture = try ServerFixture(options)
            var idle: [RawConnection] = []
            for _ in 0..<16 {
                let connection = try RawConnection(port: fixture.server.port)
                try connection.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
                idle.append(connection)
            }
            await expectHealthy(fixture.client, after: "16 idle connections holding half a request head")
            let state = try await fixture.client.customerReply("ann")
            #expect(state.status == 200, "\(state)")
            idle.forEach { $0.close() }
        }

        @Test func keepAliveServesManyRequestsOnOneConnection() async throws {
            let fixture = try ServerFixture()
            let connection = try RawConnection(port: fixture.server.port)
            for index in 0..<20 {
                let reply = try connection.request("GET", APIClient.customerPath("k\(index)"), key: fixture.keys.publicKey)
                #expect(reply.status == 200, "\(reply)")
                #expect(try reply.customer()["appUserId"] as? String == "k\(index)")
            }
        }
    }
}
