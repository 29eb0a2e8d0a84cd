import Foundation
import Testing

extension ServerProcessTests {
    /// The state cache expires when the state changes by itself: a subscription running out.
    @Suite struct Expiry {
        @Test func aSubscriptionThatRunsOutIsGoneFromTheNextRead() async throws {
            let fixture = try ServerFixture()
            let client = fixture.client
            // How long the Market's first pro.monthly period lasts, from a probe store.
            var probe = try fixture.market(start: Date(timeIntervalSince1970: 1_800_000_000))
            let first = try probe.buy("market.pro.monthly")
            let period = try #require(first.expiresDate).timeIntervalSince(first.purchaseDate)
            // A store whose purchase runs out three seconds from now.
            var market = try fixture.market(start: Date().addingTimeInterval(3 - period))
            let (transaction, jws) = try market.buySigned("market.pro.monthly", account: "ivy")
            let expires = try #require(transaction.expiresDate)

            let posted = try await client.postTransaction(jws, for: "ivy")
            #expect(posted.status == 200, "\(posted)")
            let before = try await client.customer("ivy")
            try #require(Date() < expires, "the machine was too slow to read the state before the expiry")
            #expect(JSONFields.features(before).contains("pro"), "\(before)")

            while Date() < expires.addingTimeInterval(0.5) { try await Task.sleep(nanoseconds: 100_000_000) }
            let after = try await client.customer("ivy")
            #expect(!JSONFields.features(after).contains("pro"), "a cached state outlived the expiry: \(after)")
            let subscription = (after["subscriptions"] as? [[String: Any]])?.first
            #expect(subscription?["status"] as? String == "expired", "\(String(describing: subscription))")
        }
    }
}
