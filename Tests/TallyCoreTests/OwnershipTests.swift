import Foundation
import Testing
@testable import TallyCore

private typealias F = RulesFixtures

@Suite("Ownership of non-consumables and unknown products")
struct OwnershipTests {
    @Test func nonConsumableIsOwnedForever() throws {
        let state = F.state([F.purchase("n1", "app.premium", at: F.start)], at: F.day(400))
        #expect(state.nonConsumables == ["app.premium"])
        let premium = try #require(state.entitlements.first { $0.feature == "premium" })
        #expect(premium.expiresDate == nil)
        #expect(premium.productIds == ["app.premium"])
    }

    @Test func refundEndsOwnershipFromItsDate() {
        let refunded = [F.purchase("n1", "app.premium", at: F.start, revokedAt: F.day(2))]
        #expect(F.state(refunded, at: F.day(1)).nonConsumables == ["app.premium"])
        #expect(F.state(refunded, at: F.day(3)).nonConsumables.isEmpty)
        #expect(!F.state(refunded, at: F.day(3)).isEntitled("premium"))
    }

    @Test func familySharedIsOwnedUntilFamilyRevoke() {
        var shared = F.purchase("n1", "app.premium", at: F.start, ownership: .familyShared)
        #expect(F.state([shared], at: F.day(1)).isEntitled("premium"))
        shared.revocationDate = F.day(2)
        shared.revocationType = .familyRevoke
        shared.revocationReason = .other
        #expect(!F.state([shared], at: F.day(3)).isEntitled("premium"))
    }

    @Test func theNewerCopyOfADuplicateWins() {
        let original = F.purchase("n1", "app.premium", at: F.start, signed: F.start)
        let refunded = F.purchase("n1", "app.premium", at: F.start, revokedAt: F.day(2), signed: F.day(2))
        #expect(F.state([refunded, original], at: F.day(10)).nonConsumables.isEmpty)
        #expect(F.state([original, refunded], at: F.day(10)).nonConsumables.isEmpty)
        // Signed after the refund without a revocation: Apple reversed the refund.
        let reversed = F.purchase("n1", "app.premium", at: F.start, signed: F.day(9))
        #expect(F.state([refunded, reversed], at: F.day(10)).nonConsumables == ["app.premium"])
        #expect(F.state([reversed, refunded, original], at: F.day(10)).nonConsumables == ["app.premium"])
    }

    @Test func productMissingFromCatalogCountsByTransactionType() throws {
        let legacy = F.purchase("n1", "app.legacy", at: F.start)
        let mystery = StoreTransaction(transactionId: "s1", productId: "gone.monthly", subscriptionGroupIdentifier: "gone",
                                  purchaseDate: F.start, expiresDate: F.day(30), type: .autoRenewable)
        let state = F.state([legacy, mystery], at: F.day(10))
        #expect(state.nonConsumables == ["app.legacy"])
        #expect(state.isEntitled("legacy"))
        let gone = try #require(state.subscriptions.first { $0.groupId == "gone" })
        #expect(gone.status == .subscribed)
        #expect(gone.productId == "gone.monthly")
    }

    @Test func unknownTypeFallsBackToCatalogKindOrWarns() {
        let known = StoreTransaction(transactionId: "n1", productId: "app.premium", purchaseDate: F.start,
                                type: ProductType(rawValue: "Future Kind"))
        let unknown = StoreTransaction(transactionId: "n2", productId: "app.future", purchaseDate: F.start,
                                  type: ProductType(rawValue: "Future Kind"))
        let state = F.state([known, unknown], at: F.day(1))
        #expect(state.nonConsumables == ["app.premium"])
        #expect(state.warnings.count == 1)
        #expect(state.warnings.first?.contains("app.future") == true)
    }

    @Test func subscriptionWithoutAnyGroupIsItsOwnGroupWithAWarning() {
        let orphan = StoreTransaction(transactionId: "s1", productId: "gone.weekly", purchaseDate: F.start,
                                 expiresDate: F.day(7), type: .autoRenewable)
        let state = F.state([orphan], at: F.day(1))
        #expect(state.subscriptions.map(\.groupId) == ["gone.weekly"])
        #expect(state.warnings.contains { $0.contains("gone.weekly") && $0.contains("subscriptionGroupIdentifier") })
    }

    @Test func resultDoesNotDependOnTransactionOrder() {
        let history = [
            F.purchase("n1", "app.premium", at: F.start), F.purchase("c1", "app.coins.10", at: F.day(1)),
            F.period("t1", "plus.silver.month", from: F.day(2)), F.purchase("p1", "app.pass.month", at: F.day(3)),
            F.purchase("p2", "app.pass.month", at: F.day(4)), F.purchase("c2", "app.coins.100", at: F.day(4)),
        ]
        let forward = F.state(history, at: F.day(10))
        #expect(forward == F.state(history.reversed(), at: F.day(10)))
        #expect(forward == F.state([history[3], history[0], history[5], history[1], history[4], history[2]],
                                   at: F.day(10)))
    }
}

@Suite("Ownership of non-renewing subscriptions and entitlements")
struct OwnershipNonRenewingTests {
    private let first = F.month.advance(F.start)

    @Test func oneMonthFromPurchase() throws {
        let bought = [F.purchase("p1", "app.pass.month", at: F.start)]
        let active = try #require(F.state(bought, at: F.day(10)).nonRenewing.first)
        #expect(active == CustomerState.NonRenewing(productId: "app.pass.month", expiresDate: first, isActive: true))
        let lapsed = F.state(bought, at: first)
        #expect(lapsed.nonRenewing.first?.isActive == false)
        #expect(!lapsed.isEntitled("basic"))
    }

    @Test func buyingWhileActiveExtendsFromTheEnd() {
        let bought = [F.purchase("p1", "app.pass.month", at: F.start), F.purchase("p2", "app.pass.month", at: F.day(10))]
        let state = F.state(bought, at: F.day(45))
        #expect(state.nonRenewing.first?.expiresDate == F.month.advance(first))
        #expect(state.isEntitled("basic"))
    }

    @Test func buyingAfterExpiryStartsAfresh() {
        let bought = [F.purchase("p1", "app.pass.month", at: F.start), F.purchase("p2", "app.pass.month", at: F.day(40))]
        #expect(F.state(bought, at: F.day(45)).nonRenewing.first?.expiresDate == F.month.advance(F.day(40)))
    }

    @Test func revokedPurchaseContributesNothing() {
        let bought = [F.purchase("p1", "app.pass.month", at: F.start),
                      F.purchase("p2", "app.pass.month", at: F.day(10), revokedAt: F.day(11))]
        #expect(F.state(bought, at: F.day(12)).nonRenewing.first?.expiresDate == first)
        #expect(F.state(bought, at: F.day(10.5)).nonRenewing.first?.expiresDate == F.month.advance(first))
        let allRefunded = [F.purchase("p1", "app.pass.month", at: F.start, revokedAt: F.day(1))]
        #expect(F.state(allRefunded, at: F.day(2)).nonRenewing.isEmpty)
    }

    @Test func missingDurationGrantsNothingAndWarns() {
        let state = F.state([F.purchase("p1", "app.pass.unset", at: F.start)], at: F.day(1))
        #expect(state.nonRenewing.isEmpty)
        #expect(!state.isEntitled("extras"))
        #expect(state.warnings.contains { $0.contains("app.pass.unset") && $0.contains("nonRenewingDurations") })
    }

    @Test func entitlementListsGrantingProductsAndLatestExpiry() throws {
        let history = [F.purchase("p1", "app.pass.month", at: F.start), F.period("t1", "plus.silver.month", from: F.day(5)),
                       F.purchase("n1", "app.premium", at: F.day(6))]
        let state = F.state(history, at: F.day(7))
        let basic = try #require(state.entitlements.first { $0.feature == "basic" })
        #expect(basic.productIds == ["app.pass.month", "plus.silver.month"])
        #expect(basic.expiresDate == F.month.advance(F.day(5)))
        #expect(state.entitlements.map(\.feature) == ["basic", "premium"])
        #expect(state.entitlements.last?.expiresDate == nil)
    }
}
