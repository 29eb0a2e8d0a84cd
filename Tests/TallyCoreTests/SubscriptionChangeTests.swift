import Foundation
import Testing
@testable import TallyCore

private typealias F = RulesFixtures

@Suite("Subscription change")
struct SubscriptionChangeTests {
    @Test(arguments: [
        ("plus.silver.month", "plus.gold.month", SubscriptionChange.upgrade),
        ("plus.silver.year", "plus.gold.month", .upgrade),
        ("plus.gold.year", "plus.silver.month", .downgrade),
        ("plus.silver.month", "plus.silver.month2", .crossgradeImmediate),
        ("plus.gold.month", "plus.gold.year", .crossgradeAtRenewal),
        ("plus.gold.month", "plus.gold.month", .same),
        ("plus.gold.month", "other.month", .unrelated),
        ("app.premium", "plus.gold.month", .unrelated),
    ])
    func classify(from: String, to: String, expected: SubscriptionChange) throws {
        let old = try #require(F.catalog.product(from))
        let new = try #require(F.catalog.product(to))
        #expect(SubscriptionChange.classify(from: old, to: new) == expected)
    }

    @Test func equalLengthsInOtherUnitsCrossgradeAtOnce() {
        let weekly = F.subscription("w", level: 3, period: SubscriptionDuration(value: 1, unit: .week))
        let sevenDays = F.subscription("d", level: 3, period: SubscriptionDuration(value: 7, unit: .day))
        let yearly = F.subscription("y", level: 3, period: F.year)
        let twelveMonths = F.subscription("m", level: 3, period: SubscriptionDuration(value: 12, unit: .month))
        #expect(SubscriptionChange.classify(from: weekly, to: sevenDays) == .crossgradeImmediate)
        #expect(SubscriptionChange.classify(from: yearly, to: twelveMonths) == .crossgradeImmediate)
        #expect(SubscriptionChange.classify(from: weekly, to: yearly) == .crossgradeAtRenewal)
    }

    @Test func onlyUpgradesAndSameLengthCrossgradesAreImmediate() {
        let immediate = SubscriptionChange.allCases.filter(\.takesEffectImmediately)
        #expect(immediate == [.upgrade, .crossgradeImmediate])
    }
}

@Suite("Subscription introductory offers")
struct SubscriptionOfferTests {
    @Test func introductoryOfferIsUsedOncePerGroup() {
        let state = F.state([F.period("t1", "plus.silver.month", from: F.start, offer: .introductory)], at: F.day(3))
        #expect(state.introductoryOfferUsedGroups == ["plus"])
        #expect(!state.isEligibleForIntroductoryOffer(groupId: "plus"))
        #expect(state.isEligibleForIntroductoryOffer(groupId: "other"))
    }

    @Test func freeTrialWithoutOfferTypeCounts() {
        let trial = F.period("t1", "other.month", from: F.start, discount: .freeTrial)
        #expect(!F.state([trial], at: F.day(3)).isEligibleForIntroductoryOffer(groupId: "other"))
    }

    @Test func otherOffersLeaveEligibility() {
        let promo = F.period("t1", "plus.gold.month", from: F.start, offer: .promotional, discount: .freeTrial)
        let code = F.period("t2", "other.month", from: F.start, offer: .offerCode)
        let state = F.state([promo, code], at: F.day(3))
        #expect(state.introductoryOfferUsedGroups.isEmpty)
    }

    @Test func refundedIntroductoryOfferStillCounts() {
        let refunded = F.period("t1", "plus.gold.month", from: F.start, revokedAt: F.day(2), offer: .introductory)
        #expect(!F.state([refunded], at: F.day(3)).isEligibleForIntroductoryOffer(groupId: "plus"))
        #expect(F.state([refunded], at: F.start.addingTimeInterval(-1)).isEligibleForIntroductoryOffer(groupId: "plus"))
    }
}
