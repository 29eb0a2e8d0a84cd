import Foundation
import Testing
@testable import Tally
import TallyCore

/// ``CustomerState/addingUnposted(before:after:)``: what the saved server state shows with purchases not posted.
@Suite("The saved server state with purchases not posted yet")
struct UnpostedEffectTests {
    static let date = Date(timeIntervalSince1970: 1_780_000_000)

    static func state(coins: Decimal, features: [String] = [], nonConsumables: [String] = []) -> CustomerState {
        CustomerState(date: date, entitlements: features.map { .init(feature: $0, productIds: [$0], expiresDate: nil) },
                      nonConsumables: nonConsumables, balances: ["coins": coins])
    }

    @Test func creditsAndNewProductsAreAddedOnce() {
        let server = Self.state(coins: 30, features: ["premium"], nonConsumables: ["market.premium"])
        let before = Self.state(coins: 10, features: ["premium"], nonConsumables: ["market.premium"])
        let after = Self.state(coins: 20, features: ["no-ads", "premium"], nonConsumables: ["market.premium", "market.removeads"])
        let shown = server.addingUnposted(before: before, after: after)
        #expect(shown.balance("coins") == 40)
        #expect(shown.entitlements.map(\.feature) == ["no-ads", "premium"])
        #expect(shown.nonConsumables == ["market.premium", "market.removeads"])
    }

    @Test func whatUnpostedCopiesTakeAwayIsLeftToTheServer() {
        // A refund waiting to be posted: locally premium is gone and coins clawed back; the server still has them.
        let server = Self.state(coins: 30, features: ["premium"], nonConsumables: ["market.premium"])
        let before = Self.state(coins: 10, features: ["premium"], nonConsumables: ["market.premium"])
        let after = Self.state(coins: 0)
        #expect(server.addingUnposted(before: before, after: after) == server)
    }
}
