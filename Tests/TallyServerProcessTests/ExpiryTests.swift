import Foundation
import Testing

extension ServerProcessTests {
    /// The state cache expires when the state changes by itself: a subscription running out.
    @Suite struct Expiry {
        /// The server's clock follows a `tally sandbox serve` (`clock.sandboxURL`), which stands still until
        /// `tally sandbox advance`: the expiry comes when the test moves that clock, not after a wait the machine's
        /// speed could outrun. The state is read (and cached) before, and read again until the server's clock,
        /// read every half second, has passed the expiry.
        @Test func aSubscriptionThatRunsOutIsGoneFromTheNextRead() async throws {
            let fixture = try ServerFixture()
            let appStore = try Reconcile.AppStore(in: fixture.directory, authority: fixture.authority, start: Date())
            try appStore.start()
            try fixture.reconfigure { $0["clock"] = ["sandboxURL": appStore.baseURL] }
            let client = fixture.client  // the restarted server's
            try appStore.tally(["buy", "market.pro.monthly"])
            let entry = try #require(try appStore.transactions().last)
            let jws = try #require(entry["signedTransactionInfo"] as? String)

            let posted = try await client.postTransaction(jws, for: "ivy")
            #expect(posted.status == 200, "\(posted)")
            for _ in 0..<3 {
                let before = try await client.customer("ivy")
                #expect(JSONFields.features(before).contains("pro"), "\(before)")
            }

            // Past the first period (a trial week or a month) on the sandbox's clock; the server hears of no
            // renewal (no notification URL), so for it the subscription ran out.
            try appStore.tally(["advance", "2M"])
            let deadline = Date().addingTimeInterval(15)
            var after = try await client.customer("ivy")
            while JSONFields.features(after).contains("pro"), Date() < deadline {
                try await Task.sleep(for: .milliseconds(100))
                after = try await client.customer("ivy")
            }
            #expect(!JSONFields.features(after).contains("pro"), "a cached state outlived the expiry: \(after)")
            let subscription = (after["subscriptions"] as? [[String: Any]])?.first
            #expect(subscription?["status"] as? String == "expired", "\(String(describing: subscription))")
        }
    }
}
