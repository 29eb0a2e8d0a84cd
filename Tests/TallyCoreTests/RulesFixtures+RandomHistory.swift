import Foundation
@testable import TallyCore

/// SplitMix64: a tiny deterministic generator, so every seed replays the same history.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (bound > 0).
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}

/// Builds a random customer history step by step, the way the App Store would write it: purchases,
/// renewals, upgrades, refunds, billing problems, redeliveries, and spends through `record`.
struct RandomHistoryGenerator {
    enum SpendOutcome: Equatable { case none, accepted, repeated, refused, conflicted }

    var rng: SplitMix64
    var now = RulesFixtures.start
    var history = PurchaseHistory()
    /// The latest copy of every transaction id.
    var current: [String: StoreTransaction] = [:]
    /// Group → the latest period added to it.
    var latestPeriod: [String: String] = [:]
    var renewal: [String: RenewalInfo] = [:]
    var lastSpend = SpendOutcome.none
    /// What the last spend should do: `.repeated` or `.conflicted` for a reused id, `.none` for a new one.
    var expectedSpend = SpendOutcome.none
    private var counter = 0

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    private mutating func newId() -> String {
        counter += 1
        return "t\(counter)"
    }

    private mutating func add(_ transaction: StoreTransaction) {
        var copy = transaction
        copy.signedDate = now.addingTimeInterval(Double(counter))
        history.transactions.append(copy)
        current[copy.transactionId] = copy
    }

    /// One random event, then a small step of time.
    mutating func step() throws {
        lastSpend = .none
        expectedSpend = .none
        switch rng.below(10) {
        case 0, 1: add(RulesFixtures.purchase(newId(), rng.pick(["app.coins.10", "app.coins.100", "app.dust"]),
                                              at: now, quantity: 1 + rng.below(3)))
        case 2: add(RulesFixtures.purchase(newId(), rng.pick(["app.premium", "app.legacy", "app.pass.month"]), at: now))
        case 3: subscribe(group: rng.pick(["plus", "other"]))
        case 4: billingProblem()
        case 5: refund()
        case 6: if let copy = history.transactions.randomElement(using: &rng) { history.transactions.append(copy) }
        default: try spend()
        }
        now = now.addingTimeInterval(Double(60 + rng.below(12 * 86_400)))
    }

    private mutating func subscribe(group: String) {
        let products = RulesFixtures.catalog.subscriptionGroups.first { $0.id == group }?.productIds ?? []
        let wanted = rng.pick(products)
        guard let latestId = latestPeriod[group], let latest = current[latestId],
              let expires = latest.expiresDate, latest.revocationDate == nil else {
            startPeriod(group: group, product: wanted, original: nil, offer: rng.below(2) == 0 ? .introductory : nil)
            return
        }
        if expires <= now {
            let next = renewal[latest.originalTransactionId]?.autoRenewProductId ?? wanted
            startPeriod(group: group, product: next, original: latest.originalTransactionId, offer: nil)
            return
        }
        guard let from = RulesFixtures.catalog.product(latest.productId),
              let to = RulesFixtures.catalog.product(wanted) else { return }
        if SubscriptionChange.classify(from: from, to: to).takesEffectImmediately {
            if rng.below(2) == 0 {
                var flagged = latest
                flagged.isUpgraded = true
                add(flagged)
            }
            startPeriod(group: group, product: wanted, original: latest.originalTransactionId, offer: nil)
        } else {
            setRenewal(latest.originalTransactionId, product: latest.productId, next: wanted, autoRenew: true)
        }
    }

    private mutating func startPeriod(group: String, product: String, original: String?, offer: OfferType?) {
        let id = newId()
        add(RulesFixtures.period(id, product, from: now, original: original, offer: offer))
        latestPeriod[group] = id
        setRenewal(original ?? id, product: product, next: product, autoRenew: rng.below(4) != 0)
    }

    private mutating func setRenewal(_ chain: String, product: String, next: String, autoRenew: Bool,
                                     retry: Bool? = nil, grace: Date? = nil) {
        var info = RulesFixtures.renewal(chain, product, next: next, autoRenew: autoRenew, billingRetry: retry,
                                         grace: grace)
        info.signedDate = now.addingTimeInterval(Double(counter))
        counter += 1
        history.renewalInfos.append(info)
        renewal[chain] = info
    }

    private mutating func billingProblem() {
        guard let id = latestPeriod.values.sorted().randomElement(using: &rng), let period = current[id] else { return }
        let grace = rng.below(2) == 0 ? period.expiresDate.map { $0.addingTimeInterval(16 * 86_400) } : nil
        setRenewal(period.originalTransactionId, product: period.productId, next: period.productId, autoRenew: true,
                   retry: true, grace: grace)
    }

    private mutating func refund() {
        let open = current.values.filter { $0.revocationDate == nil }.map(\.transactionId).sorted()
        guard let id = open.randomElement(using: &rng), var copy = current[id] else { return }
        copy.revocationDate = now
        copy.revocationReason = .appIssue
        add(copy)
    }

    private mutating func spend() throws {
        let currency = rng.pick(["coins", "dust"])
        let amount = currency == "coins" ? Decimal(1 + rng.below(60)) : Decimal(1 + rng.below(8)) / 10
        let reuse = !history.spends.isEmpty && rng.below(5) == 0
        var spend = Spend(id: "s\(counter)", currency: currency, amount: amount, date: now)
        if reuse, let old = history.spends.randomElement(using: &rng) {
            let same = rng.below(2) == 0
            spend = same ? old : Spend(id: old.id, currency: old.currency, amount: old.amount + 1, date: now)
            expectedSpend = same ? .repeated : .conflicted
        }
        counter += 1
        do {
            lastSpend = try history.record(spend, catalog: RulesFixtures.catalog,
                                           configuration: RulesFixtures.configuration) ? .accepted : .repeated
        } catch let error as TallyError where error.code == .insufficientBalance {
            lastSpend = .refused
        } catch let error as TallyError where error.code == .conflictingId {
            lastSpend = .conflicted
        }
    }
}

extension SplitMix64: RandomNumberGenerator {}
