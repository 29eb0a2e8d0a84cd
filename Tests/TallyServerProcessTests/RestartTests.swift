import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ServerProcessTests {
    /// A clean stop (SIGTERM, SIGINT) exits 0 and loses nothing.
    @Suite struct Restart {
        @Test func sigintStopsTheServerCleanly() async throws {
            let fixture = try ServerFixture()
            var market = try fixture.market()
            let (_, jws) = try market.buySigned("market.premium", account: "jon")
            #expect(try await fixture.client.postTransaction(jws, for: "jon").status == 200)
            let status = try fixture.server.terminate(with: SIGINT)
            #expect(status == 0, "SIGINT must stop the server cleanly; stderr: \(fixture.server.stderr.text)")
            try fixture.restart()
            #expect(JSONFields.nonConsumables(try await fixture.client.customer("jon")) == ["market.premium"])
        }

        @Test func stateSurvivesACleanRestart() async throws {
            let fixture = try ServerFixture()
            var market = try fixture.market()
            let client = fixture.client
            for product in ["market.premium", "market.coins.100", "market.pro.yearly"] {
                let (_, jws) = try market.buySigned(product, account: "eve")
                #expect(try await client.postTransaction(jws, for: "eve").status == 200)
            }
            #expect(try await client.spend(25, id: "eve-1", for: "eve").status == 200)
            let state = try await client.customer("eve")
            let history = try await client.history("eve")
            #expect(JSONFields.balance(state) == 75)

            let status = try fixture.server.terminate()
            #expect(status == 0, "SIGTERM must stop the server cleanly; stderr: \(fixture.server.stderr.text)")
            try fixture.restart()
            let restarted = fixture.client
            #expect(JSONFields.equal(try await restarted.customer("eve"), state))
            #expect(JSONFields.equal(try await restarted.history("eve"), history))
            let duplicate = try await restarted.spend(25, id: "eve-1", for: "eve")
            #expect((try duplicate.json()["spend"] as? [String: Any])?["outcome"] as? String == "duplicate",
                    "a spend id is recorded once, across restarts: \(duplicate)")
            #expect(JSONFields.balance(try await restarted.customer("eve")) == 75)
        }
    }
}
