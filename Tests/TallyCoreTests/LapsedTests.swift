import Foundation
import Testing
import TallyCore

/// ``CustomerState/hasLapsed(groupId:)``: subscribed in the group before, nothing of the group entitled or retrying now.
@Suite("A customer lapsed in a subscription group")
struct LapsedTests {
    private static func state(_ statuses: [(String, SubscriptionState)]) -> CustomerState {
        CustomerState(date: Date(), subscriptions: statuses.enumerated().map { index, entry in
            CustomerState.Subscription(groupId: entry.0, productId: "p\(index)", status: entry.1, expiresDate: nil,
                                       willRenew: false, originalTransactionId: "\(index)")
        })
    }

    @Test func onlyExpiredOrRevokedSubscriptionsOfTheGroupCountAsLapsed() {
        #expect(Self.state([("g", .expired)]).hasLapsed(groupId: "g"))
        #expect(Self.state([("g", .expired), ("g", .revoked), ("other", .subscribed)]).hasLapsed(groupId: "g"))
        #expect(!Self.state([]).hasLapsed(groupId: "g"), "never subscribed is not lapsed")
        #expect(!Self.state([("other", .expired)]).hasLapsed(groupId: "g"))
        for status in [SubscriptionState.subscribed, .inGracePeriod, .inBillingRetry] {
            #expect(!Self.state([("g", .expired), ("g", status)]).hasLapsed(groupId: "g"), "\(status)")
        }
        #expect(!Self.state([("G", .expired)]).hasLapsed(groupId: "g"), "group ids compared as bytes")
    }
}
