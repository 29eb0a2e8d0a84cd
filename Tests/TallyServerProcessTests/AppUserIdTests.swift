import Foundation
import Testing

extension ServerProcessTests {
    /// An appUserId is data: whatever its bytes, it is stored and read back exactly.
    @Suite struct AppUserIds {
        static let unusual = [
            "'; DROP TABLE transactions;--",
            "robert\"); DELETE FROM customers WHERE (\"1\"=\"1",
            "🎉👩‍👩‍👧‍👦 party",
            "مستخدم\u{202E}evil\u{202C} שלום",
            "a/b/../c?d=e&f#g%2F%00",
            "nul\u{0}byte and\ttab\nnewline",
            String(repeating: "x", count: 10 * 1_024),
            String(repeating: "😀", count: 16_384 / 4),
        ]

        @Test(arguments: unusual)
        func anUnusualAppUserIdIsStoredAndReadBackExactly(_ appUserId: String) async throws {
            let fixture = try ServerFixture()
            let client = fixture.client
            var market = try fixture.market()
            let (_, plainJWS) = try market.buySigned("market.removeads", account: "plain")
            #expect(try await client.postTransaction(plainJWS, for: "plain").status == 200)

            let (transaction, jws) = try market.buySigned("market.premium", account: "unusual")
            let posted = try await client.postTransaction(jws, for: appUserId)
            #expect(posted.status == 200, "\(posted)")
            #expect(try posted.customer()["appUserId"] as? String == appUserId)
            let state = try await client.customer(appUserId)
            #expect(state["appUserId"] as? String == appUserId, "the id came back changed")
            #expect(JSONFields.nonConsumables(state) == ["market.premium"])
            #expect(JSONFields.transactionIds(try await client.history(appUserId)) == [transaction.transactionId])
            let plain = try await client.customer("plain")
            #expect(JSONFields.nonConsumables(plain) == ["market.removeads"], "another customer was affected")
            await expectHealthy(client, after: "appUserId \(appUserId.prefix(30))")
        }

        /// Raw path segments (already percent-encoded) that are no valid appUserId.
        static let invalid = [
            "",
            String(repeating: "y", count: 16_385),
            String(repeating: "%C3%A9", count: 8_193),
            "a%ZZ",
            "%FF%FE",
            "%C3",
        ]

        @Test(arguments: invalid)
        func anInvalidAppUserIdIs400(_ segment: String) async throws {
            let fixture = try ServerFixture()
            // A raw connection: URLSession would re-encode a bad escape such as `%ZZ`.
            let connection = try RawConnection(port: fixture.server.port)
            for suffix in ["", "/history", "/transactions"] {
                let method = suffix == "/transactions" ? "POST" : "GET"
                let reply = try connection.request(method, "/v1/customers/" + segment + suffix,
                                                   key: fixture.keys.secretKey, body: method == "POST" ? Data("{}".utf8) : nil)
                #expect(reply.status == 400, "\(segment.prefix(20))\(suffix): \(reply)")
                #expect(reply.errorCode == "invalid_request", "\(segment.prefix(20))\(suffix): \(reply)")
            }
            await expectHealthy(fixture.client, after: "appUserId segment \(segment.prefix(20))")
        }
    }
}
