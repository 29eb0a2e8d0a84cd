import Foundation
import Testing

extension ServerProcessTests {
    /// Unknown routes, wrong methods and bodies that are not what the route takes.
    @Suite struct Routing {
        @Test func unknownRoutesAre404AndWrongMethods405WithAllow() async throws {
            let fixture = try ServerFixture()
            let client = fixture.client
            let secret = fixture.keys.secretKey
            for path in ["/v1/nothing", "/v2/customers/ann", "/v1/customers/ann/transactions/extra", "/"] {
                let reply = try await client.send("GET", path, key: secret)
                #expect(reply.status == 404, "\(path): \(reply)")
                #expect(reply.errorCode == "not_found", "\(path): \(reply)")
                await expectHealthy(client, after: "GET \(path)")
            }
            let wrong: [(String, String, String)] = [
                ("DELETE", APIClient.customerPath("ann"), "GET"),
                ("GET", APIClient.customerPath("ann") + "/transactions", "POST"),
                ("PUT", APIClient.customerPath("ann") + "/currencies/coins/spend", "POST"),
                ("POST", "/healthz", "GET"),
            ]
            for (method, path, allowed) in wrong {
                let reply = try await client.send(method, path, key: secret, body: method == "GET" ? nil : Data("{}".utf8))
                #expect(reply.status == 405, "\(method) \(path): \(reply)")
                #expect(reply.errorCode == "method_not_allowed", "\(method) \(path): \(reply)")
                let allow = reply.header("Allow")?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                #expect(allow?.contains(allowed) == true, "\(method) \(path): Allow is \(String(describing: allow))")
                await expectHealthy(client, after: "\(method) \(path)")
            }
        }

        @Test func healthzAndMetricsNeedNoKey() async throws {
            let fixture = try ServerFixture()
            let client = fixture.client
            #expect(await client.isHealthy())
            _ = try await client.customerReply("ann")
            _ = try await client.send("GET", "/v1/nothing", key: fixture.keys.publicKey)
            var market = try fixture.market()
            let (_, jws) = try market.buySigned("market.premium", account: "ann")
            #expect(try await client.postTransaction(jws, for: "ann").status == 200)
            _ = try await client.postTransaction("not.a.jws", for: "ann")
            let metrics = try await client.send("GET", "/metrics")
            #expect(metrics.status == 200, "\(metrics)")
            let lines = metrics.text.split(separator: "\n").map(String.init)
            func has(_ name: String, _ labels: [String]) -> Bool {
                lines.contains { line in line.hasPrefix(name + "{") && labels.allSatisfy { line.contains($0) } }
            }
            #expect(has("tally_http_requests_total",
                        [#"route="/v1/customers/{appUserId}""#, #"method="GET""#, #"status="200""#]),
                    "\(metrics.text.prefix(1500))")
            #expect(has("tally_http_requests_total", [#"route="unmatched""#, #"status="404""#]))
            #expect(has("tally_http_request_duration_seconds_bucket", [#"route="/v1/customers/{appUserId}""#]))
            #expect(has("tally_verifications_total", [#"kind="transaction""#, #"result="valid""#]))
            #expect(has("tally_verifications_total", [#"kind="transaction""#, #"result="VERIFICATION_FAILURE""#]))
        }

        @Test func malformedOrTooDeepJSONIs400() async throws {
            let fixture = try ServerFixture()
            let client = fixture.client
            let path = APIClient.customerPath("ann") + "/transactions"
            let malformed: [(String, Data)] = [
                ("truncated JSON", Data(#"{"signedTransaction":"#.utf8)),
                ("not JSON", Data("signedTransaction=abc".utf8)),
                ("invalid UTF-8", Data([0x7B, 0x22, 0xFF, 0xFE, 0x22, 0x3A, 0x31, 0x7D])),
                ("an empty body", Data()),
            ]
            for (what, body) in malformed {
                let reply = try await client.send("POST", path, key: fixture.keys.publicKey, body: body)
                #expect(reply.status == 400, "\(what): \(reply)")
                #expect(reply.errorCode == "malformed_json", "\(what): \(reply)")
                await expectHealthy(client, after: what)
            }
            let deep = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
            let tooDeep = try await client.send("POST", path, key: fixture.keys.publicKey,
                                                body: Data(#"{"signedTransaction":\#(deep)}"#.utf8))
            #expect(tooDeep.status == 400, "\(tooDeep)")
            #expect(tooDeep.errorCode == "json_too_deep", "\(tooDeep)")
            await expectHealthy(client, after: "JSON 200 levels deep")
            let shallow = String(repeating: "[", count: 5) + String(repeating: "]", count: 5)
            let wrongType = try await client.send("POST", path, key: fixture.keys.publicKey,
                                                  body: Data(#"{"signedTransaction":\#(shallow)}"#.utf8))
            #expect(wrongType.status == 400, "\(wrongType)")
            #expect(wrongType.errorCode == "invalid_request", "a shallow array is parsed, then refused as the wrong type: \(wrongType)")
            let missing = try await client.send("POST", path, key: fixture.keys.publicKey, body: Data("{}".utf8))
            #expect(missing.status == 400)
            #expect(missing.errorCode == "invalid_request", "\(missing)")
            await expectHealthy(client, after: "a body without signedTransaction")
        }

        @Test func aBodyOverTheLimitIs413() async throws {
            var options = ServerOptions()
            options.maxBodyBytes = 4_096
            let fixture = try ServerFixture(options)
            let client = fixture.client
            let big = try APIClient.json(["signedTransaction": String(repeating: "a", count: 8_000)])
            let reply = try await client.send("POST", APIClient.customerPath("ann") + "/transactions",
                                              key: fixture.keys.publicKey, body: big)
            #expect(reply.status == 413, "\(reply)")
            #expect(reply.errorCode == "body_too_large", "\(reply)")
            await expectHealthy(client, after: "a body over maxBodyBytes")
            // Announced too large: answered at once, the body never read.
            let announced = try RawConnection(port: fixture.server.port)
            try announced.send("POST /v1/customers/ann/transactions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Authorization: Bearer \(fixture.keys.publicKey)\r\nContent-Type: application/json\r\n"
                + "Expect: 100-continue\r\nContent-Length: 10000000\r\n\r\n")
            let early = try #require(try announced.readResponse(), "no answer to an announced 10 MB body")
            #expect(early.status == 413, "\(early)")
            #expect(early.errorCode == "body_too_large", "\(early)")
            await expectHealthy(client, after: "an announced 10 MB body")
            // Chunked, with no length announced: refused once the limit is passed.
            let chunked = try RawConnection(port: fixture.server.port)
            var request = "POST /v1/customers/ann/transactions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Authorization: Bearer \(fixture.keys.publicKey)\r\nContent-Type: application/json\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n"
            for _ in 0..<8 { request += "400\r\n" + String(repeating: " ", count: 1_024) + "\r\n" }
            request += "0\r\n\r\n"
            try? chunked.send(request)
            let late = try #require(try chunked.readResponse(), "no answer to an 8 KB chunked body")
            #expect(late.status == 413, "\(late)")
            #expect(late.errorCode == "body_too_large", "\(late)")
            await expectHealthy(client, after: "an 8 KB chunked body")
            let small = try APIClient.json(["signedTransaction": String(repeating: "a", count: 1_000)])
            let under = try await client.send("POST", APIClient.customerPath("ann") + "/transactions",
                                              key: fixture.keys.publicKey, body: small)
            #expect(under.status == 422, "a body under the limit is read and fails verification: \(under)")
        }
    }
}
