import Foundation
import Testing
import TallyCore

extension ServerProcessTests {
    /// A verified transaction dated after the server's clock (clock skew, a sandbox ahead in time) is never
    /// silently dropped: one-time purchases count from the moment they are stored, and the answer says what
    /// the state shows.
    @Suite struct ClockSkew {
        private static func outcome(_ reply: HTTPReply) throws -> String? {
            (try reply.json()["transaction"] as? [String: Any])?["outcome"] as? String
        }

        @Test func purchasesFromAStoreAheadInTimeAreOwnedAtOnce() async throws {
            let fixture = try ServerFixture()
            let client = fixture.client
            var market = try fixture.market(start: Date().addingTimeInterval(3 * 86_400))
            let (_, premiumJWS) = try market.buySigned("market.premium", account: "ahead")
            let (_, coinsJWS) = try market.buySigned("market.coins.100", account: "ahead")
            for jws in [premiumJWS, coinsJWS] {
                let reply = try await client.postTransaction(jws, for: "ahead")
                #expect(reply.status == 200, "\(reply)")
                #expect(try Self.outcome(reply) == "inserted")
            }
            let state = try await client.customer("ahead")
            #expect(JSONFields.nonConsumables(state) == ["market.premium"], "\(state)")
            #expect(JSONFields.features(state).contains("premium"))
            #expect(JSONFields.balance(state) == 100)
            #expect(try await client.spend(60, id: "ahead-1", for: "ahead").status == 200)
        }

        @Test func aSubscriptionStartingAfterTheServersClockSaysSo() async throws {
            let fixture = try ServerFixture()
            let client = fixture.client
            var market = try fixture.market(start: Date().addingTimeInterval(3 * 86_400))
            let (_, jws) = try market.buySigned("market.pro.monthly", account: "ahead")
            let reply = try await client.postTransaction(jws, for: "ahead")
            #expect(reply.status == 200, "\(reply)")
            #expect(try Self.outcome(reply) == "future", "the state does not show it yet: \(reply)")
            #expect(!JSONFields.features(try await client.customer("ahead")).contains("pro"))
        }
    }
}
