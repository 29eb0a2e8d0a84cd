import Foundation
import Testing
@testable import TallyServer

@Suite("Routes, methods and appUserId")
struct RouteTests {
    @Test("unknown paths are 404 not_found", arguments: [
        "/", "/v1", "/v1/customers", "/v1/customers/u/", "/v1/customers/u/other",
        "/v1/customers/u/currencies/coins", "/v1/customers/u/currencies/coins/spend/x", "/v2/customers/u", "/healthz/",
    ])
    func notFound(path: String) throws {
        let reply = try ServerFixture().send("GET", path)
        #expect(reply.status == 404)
        #expect(reply.errorCode == "not_found")
    }

    @Test("a known path with another method is 405 with Allow")
    func methodNotAllowed() throws {
        let fixture = try ServerFixture()
        let cases: [(String, String, String)] = [
            ("POST", "/v1/customers/u", "GET, HEAD"), ("GET", "/v1/customers/u/transactions", "POST"),
            ("DELETE", "/v1/customers/u/receipts", "POST"), ("POST", "/v1/customers/u/history", "GET, HEAD"),
            ("GET", "/v1/customers/u/currencies/coins/spend", "POST"), ("POST", "/healthz", "GET, HEAD"),
            ("PUT", "/metrics", "GET, HEAD"), ("HEAD", "/v1/customers/u/transactions", "POST"),
        ]
        for (method, path, allowed) in cases {
            let reply = fixture.send(method, path)
            #expect(reply.status == 405, "\(method) \(path)")
            #expect(reply.errorCode == "method_not_allowed")
            #expect(reply.header("Allow") == allowed)
        }
    }

    @Test("appUserId is percent-decoded and kept as data: slashes, SQL, quotes, unicode, 10 KB")
    func hostileIds() throws {
        let fixture = try ServerFixture()
        let ids = ["a/b", "x'; DROP TABLE customers; --", #"quote"and\backslash"#, "Zoë 👩‍💻 用户", "%41",
                   String(repeating: "k", count: 10_240), "null", "+plus+", "tab\tand\nnewline"]
        for (index, id) in ids.enumerated() {
            let premium = Purchases.premium("20\(index)", at: ServerFixture.start)
            let posted = try fixture.post(premium, for: id)
            #expect(posted.status == 200, "\(id.prefix(20))")
            #expect(posted.customer["appUserId"] as? String == id)
            let read = fixture.send("GET", "/v1/customers/\(ServerFixture.escape(id))")
            #expect(read.customer["appUserId"] as? String == id)
            #expect(read.customer["nonConsumables"] as? [String] == ["market.premium"])
            #expect(try fixture.store.customer(id).transactions.map(\.transaction.transactionId) == ["20\(index)"])
        }
    }

    @Test("bad appUserIds are 400 invalid_request: empty, bad escapes, not UTF-8, over 16384 bytes")
    func badIds() throws {
        let fixture = try ServerFixture()
        let long = String(repeating: "é", count: 8193)  // 16386 bytes
        for path in ["/v1/customers//transactions", "/v1/customers/", "/v1/customers/%zz", "/v1/customers/%ff%fe", "/v1/customers/a%2",
                     "/v1/customers/\(ServerFixture.escape(long))", "/v1/customers/u/currencies//spend"] {
            let method = path.hasSuffix("spend") || path.hasSuffix("transactions") ? "POST" : "GET"
            let reply = fixture.send(method, path, body: "{}")
            #expect(reply.status == 400, "\(path.prefix(40))")
            #expect(reply.errorCode == "invalid_request")
        }
        let exact = String(repeating: "é", count: 8192)
        #expect(fixture.send("GET", "/v1/customers/\(ServerFixture.escape(exact))").status == 200)
    }

    @Test("a customer never seen owns nothing")
    func unknownCustomer() throws {
        let reply = try ServerFixture().send("GET", "/v1/customers/nobody", key: ServerFixture.publicKey)
        #expect(reply.status == 200)
        #expect(reply.text == #"{"customer":{"appUserId":"nobody","entitlements":[],"nonConsumables":[],"#
            + #""subscriptions":[],"nonRenewing":[],"balances":{"coins":0},"debts":{}}}"#)
    }

    @Test("metrics count requests by route template, method and status, with a latency histogram")
    func metrics() throws {
        let fixture = try ServerFixture()
        _ = fixture.send("GET", "/v1/customers/a")
        _ = fixture.send("GET", "/v1/customers/b")
        _ = fixture.send("GET", "/nowhere")
        _ = fixture.send("BREW", "/v1/customers/a")
        let text = fixture.send("GET", "/metrics", key: nil).text
        #expect(text.contains(#"tally_http_requests_total{route="/v1/customers/{appUserId}",method="GET",status="200"} 2"#))
        #expect(text.contains(#"tally_http_requests_total{route="unmatched",method="GET",status="404"} 1"#))
        #expect(text.contains(#"tally_http_requests_total{route="/v1/customers/{appUserId}",method="other",status="405"} 1"#))
        #expect(text.contains(#"tally_http_request_duration_seconds_count{route="/v1/customers/{appUserId}"} 3"#))
        #expect(text.contains(#"tally_http_request_duration_seconds_bucket{route="/v1/customers/{appUserId}",le="+Inf"} 3"#))
        #expect(!text.contains("/v1/customers/a\""))
    }
}
