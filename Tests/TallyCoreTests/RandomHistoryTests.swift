import Foundation
import Testing
@testable import TallyCore

private typealias F = RulesFixtures

/// Replays random histories and checks the rules' invariants after every step.
@Suite("Random histories")
struct RandomHistoryTests {
    @Test(arguments: [1, 7, 42, 2024, 0xDEAD_BEEF] as [UInt64])
    func invariantsHoldAtEveryStep(seed: UInt64) throws {
        var generator = RandomHistoryGenerator(seed: seed)
        var outcomes: Set<String> = []
        for step in 0..<160 {
            let before = F.state(generator.history.transactions, renewals: generator.history.renewalInfos,
                                 spends: generator.history.spends, at: generator.now)
            try generator.step()
            let now = generator.now
            let history = generator.history
            let state = CustomerState(catalog: F.catalog, configuration: F.configuration, history: history, at: now)
            let context = Comment(rawValue: "seed \(seed), step \(step)")
            checkIdempotent(state, history, now, context)
            if step % 8 == 0 { checkOrderIndependent(state, history, now, seed: seed &+ UInt64(step), context) }
            checkLedger(state, history, now, context)
            checkSubscriptions(state, generator, context)
            checkOwnership(state, history, now, context)
            checkSpend(generator, before: before, after: state, context)
            outcomes.insert("\(generator.lastSpend)")
        }
        #expect(outcomes.isSuperset(of: ["accepted", "refused"]), "seed \(seed) never exercised spends: \(outcomes)")
    }

    /// Delivering every transaction, renewal info and spend a second time changes nothing.
    private func checkIdempotent(_ state: CustomerState, _ history: PurchaseHistory, _ now: Date, _ context: Comment) {
        let doubled = PurchaseHistory(transactions: history.transactions + history.transactions,
                                      renewalInfos: history.renewalInfos + history.renewalInfos,
                                      spends: history.spends + history.spends)
        let again = CustomerState(catalog: F.catalog, configuration: F.configuration, history: doubled, at: now)
        #expect(again == state, context)
    }

    /// Every copy in these histories differs in `signedDate` or not at all, so the order of delivery
    /// cannot matter.
    private func checkOrderIndependent(_ state: CustomerState, _ history: PurchaseHistory, _ now: Date,
                                       seed: UInt64, _ context: Comment) {
        var rng = SplitMix64(seed: seed)
        let shuffled = PurchaseHistory(transactions: history.transactions.shuffled(using: &rng),
                                       renewalInfos: history.renewalInfos.shuffled(using: &rng),
                                       spends: history.spends.shuffled(using: &rng))
        let again = CustomerState(catalog: F.catalog, configuration: F.configuration, history: shuffled, at: now)
        #expect(again == state, context)
    }

    /// balance − debt = credits − spends − claw-backs, computed here straight from the raw history.
    private func checkLedger(_ state: CustomerState, _ history: PurchaseHistory, _ now: Date, _ context: Comment) {
        var expected: [String: Decimal] = ["coins": 0, "dust": 0]
        let copies = Dictionary(grouping: history.transactions.filter { $0.purchaseDate <= now }, by: \.transactionId)
        for (_, versions) in copies {
            let first = versions[0]
            guard let (currency, rate) = F.configuration.currencies.first(where: { $0.value[first.productId] != nil })
                .map({ ($0.key, $0.value[first.productId] ?? 0) }) else { continue }
            let revoked = versions.contains { ($0.revocationDate ?? .distantFuture) <= now }
            if !revoked { expected[currency, default: 0] += rate * Decimal(first.quantity) }
        }
        var seen: Set<String> = []
        for spend in history.spends where spend.date <= now && seen.insert(spend.id).inserted {
            expected[spend.currency, default: 0] -= spend.amount
        }
        let ledger = Ledger(history: history, catalog: F.catalog, configuration: F.configuration, through: now)
        #expect(ledger.entries == state.ledger, context)
        for (currency, net) in expected {
            #expect(ledger.net(of: currency) == net, context)
            let balance = state.balance(currency), debt = state.debts[currency] ?? 0
            #expect(balance - debt == net, context)
            #expect(balance >= 0 && debt >= 0 && (balance == 0 || debt == 0), context)
        }
    }

    /// One product in force per group, from that group; the latest running period is the one in force.
    private func checkSubscriptions(_ state: CustomerState, _ generator: RandomHistoryGenerator, _ context: Comment) {
        #expect(Set(state.subscriptions.map(\.groupId)).count == state.subscriptions.count, context)
        for subscription in state.subscriptions {
            #expect(F.catalog.product(subscription.productId)?.subscription?.groupId == subscription.groupId, context)
        }
        for (group, id) in generator.latestPeriod {
            guard let latest = generator.current[id], latest.revocationDate == nil,
                  let expires = latest.expiresDate, generator.now < expires else { continue }
            let subscription = state.subscriptions.first { $0.groupId == group }
            #expect(subscription?.status == .subscribed, context)
            #expect(subscription?.productId == latest.productId, context)
        }
    }

    /// Nothing is owned or grants a feature after its revocation; entitlements only come from allowed products.
    private func checkOwnership(_ state: CustomerState, _ history: PurchaseHistory, _ now: Date, _ context: Comment) {
        let copies = Dictionary(grouping: history.transactions.filter { $0.purchaseDate <= now }, by: \.transactionId)
        let heldProducts = Set(copies.values.filter { versions in
            !versions.contains { ($0.revocationDate ?? .distantFuture) <= now }
        }.map { $0[0].productId })
        for productId in state.nonConsumables { #expect(heldProducts.contains(productId), context) }
        for subscription in state.subscriptions where subscription.status.isEntitled {
            #expect(heldProducts.contains(subscription.productId), context)
        }
        let active = Set(state.nonConsumables)
            .union(state.subscriptions.filter(\.status.isEntitled).map(\.productId))
            .union(state.nonRenewing.filter(\.isActive).map(\.productId))
        for entitlement in state.entitlements {
            let allowed = Set(F.configuration.entitlements[entitlement.feature] ?? [])
            #expect(Set(entitlement.productIds).isSubset(of: allowed.intersection(active).intersection(heldProducts)),
                    context)
            if let expires = entitlement.expiresDate { #expect(expires > now, context) }
        }
    }

    /// A spend is accepted only when covered, repeats are no-ops, and reused ids with new values conflict.
    private func checkSpend(_ generator: RandomHistoryGenerator, before: CustomerState, after: CustomerState,
                            _ context: Comment) {
        switch generator.expectedSpend {
        case .repeated, .conflicted: #expect(generator.lastSpend == generator.expectedSpend, context)
        default: #expect(generator.lastSpend != .repeated && generator.lastSpend != .conflicted, context)
        }
        guard generator.lastSpend == .accepted, let spend = generator.history.spends.last else { return }
        #expect(before.balance(spend.currency) >= spend.amount, context)
        #expect(after.debts[spend.currency] == nil, context)
    }
}
