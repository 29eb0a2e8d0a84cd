import Foundation
import Testing
@testable import TallyCore

private typealias F = RulesFixtures

/// A store's transactions and supersession marks, kept the way `TransactionRecorder` keeps them: newer facts win,
/// a new copy clears its own mark and the marks it made, and ``PeriodSupersession/plan(after:unsuperseded:)``
/// runs after every write of a transaction it concerns.
struct SupersessionStore {
    private(set) var rows: [UTF8Key: (transaction: StoreTransaction, mark: PeriodSupersession.Mark?)] = [:]
    private(set) var cleared = 0

    mutating func write(_ copy: StoreTransaction) {
        let key = UTF8Key(copy.transactionId)
        if let stored = rows[key] {
            guard stored.transaction != copy, copy.supersedes(stored.transaction) else { return }
            for (other, row) in rows where row.mark.map({ $0.by.hasSameBytes(as: copy.transactionId) }) == true {
                rows[other]?.mark = nil
            }
        }
        rows[key] = (copy, nil)
        guard copy.type != .consumable, PeriodSupersession.concerns(copy) else { return }
        let unsuperseded = rows.values.filter { $0.mark == nil && $0.transaction.type != .consumable }.map(\.transaction)
        switch PeriodSupersession.plan(after: copy, unsuperseded: unsuperseded) {
        case .clearAll:
            for key in rows.keys { rows[key]?.mark = nil }
            cleared += 1
        case .mark(let marks):
            for mark in marks { rows[UTF8Key(mark.transactionId)]?.mark = mark }
        }
    }

    /// Every stored transaction that is not a consumable.
    var facts: [StoreTransaction] {
        rows.values.map(\.transaction).filter { $0.type != .consumable }.sorted { $0.transactionId < $1.transactionId }
    }

    /// What a store reads for a state at `now`: the facts not superseded by then.
    func read(at now: Date) -> [StoreTransaction] {
        rows.values.filter { $0.transaction.type != .consumable && ($0.mark.map { $0.from > now } ?? true) }
            .map(\.transaction).sorted { $0.transactionId < $1.transactionId }
    }

    var markedCount: Int { rows.values.filter { $0.mark != nil }.count }
}

/// Long subscriber histories the way the App Store writes them — renewals, gaps, crossgrades, upgrade flags,
/// refunds and their reversals, a second chain, redelivered old copies, periods dated ahead of the clock.
struct SubscriberHistory {
    var rng: SplitMix64
    var transactions: [StoreTransaction] = []
    var renewals: [RenewalInfo] = []
    private var counter = 0

    init(seed: UInt64, periods: Int, products: [String]) {
        rng = SplitMix64(seed: seed)
        var start = F.start
        var chain = "c\(seed)-a"
        var product = products[0]
        for index in 0..<periods {
            counter += 1
            let id = "p\(seed)-\(counter)"
            let offer: OfferType? = index == 0 && rng.below(2) == 0 ? .introductory : nil
            var period = F.period(id, product, from: start, original: index == 0 ? id : chain, offer: offer)
            if index == 0 { chain = id }
            period.signedDate = start.addingTimeInterval(Double(counter))
            transactions.append(period)
            let expires = period.expiresDate ?? start
            switch rng.below(20) {
            case 0: revoke(period, at: expires.addingTimeInterval(-3_600))
            case 1:  // a refund, later reversed
                revoke(period, at: expires.addingTimeInterval(-3_600))
                var reversed = period
                reversed.signedDate = expires.addingTimeInterval(7_200)
                transactions.append(reversed)
            case 2 where products.count > 1:  // an immediate change in the middle of the period
                var flagged = period
                if rng.below(2) == 0 {
                    flagged.isUpgraded = true
                    flagged.signedDate = start.addingTimeInterval(43_200)
                    transactions.append(flagged)
                }
                product = rng.pick(products)
                start = start.addingTimeInterval(86_400)
                continue
            case 3: start = expires.addingTimeInterval(Double(86_400 * (1 + rng.below(20))))  // lapsed, back later
                continue
            case 4 where products.count > 1: product = rng.pick(products)  // a change at renewal
            case 5:  // a second chain in the group
                counter += 1
                let second = "q\(seed)-\(counter)"
                var other = F.period(second, product, from: start.addingTimeInterval(600), original: second)
                other.signedDate = start.addingTimeInterval(Double(counter))
                transactions.append(other)
            case 6: if let old = transactions.randomElement(using: &rng) { transactions.append(old) }
            default: break
            }
            start = expires
        }
        var info = F.renewal(chain, product, next: product, autoRenew: rng.below(3) != 0)
        info.signedDate = start
        renewals.append(info)
        transactions.append(F.purchase("n\(seed)", "app.premium", at: F.day(3)))
        transactions.append(F.purchase("k\(seed)", "app.coins.10", at: F.day(4)))
    }

    private mutating func revoke(_ period: StoreTransaction, at date: Date) {
        var copy = period
        copy.revocationDate = date
        copy.revocationReason = .appIssue
        copy.signedDate = date
        transactions.append(copy)
    }
}

@Suite("Period supersession")
struct PeriodSupersessionTests {
    private static func state(_ transactions: [StoreTransaction], _ renewals: [RenewalInfo], at now: Date) -> CustomerState {
        CustomerState(catalog: F.catalog, configuration: F.configuration,
                      history: PurchaseHistory(transactions: transactions, renewalInfos: renewals), nets: [:], at: now)
    }

    /// The times worth asking at: every purchase, expiry and revocation date, a second either side, and between.
    private static func moments(_ transactions: [StoreTransaction]) -> [Date] {
        var dates: Set<Date> = []
        for transaction in transactions {
            for date in [transaction.purchaseDate, transaction.expiresDate, transaction.revocationDate].compactMap({ $0 }) {
                dates.formUnion([date, date.addingTimeInterval(-1), date.addingTimeInterval(1),
                                 date.addingTimeInterval(86_400 * 10)])
            }
        }
        return dates.sorted()
    }

    private static func checkEveryMoment(_ store: SupersessionStore, _ renewals: [RenewalInfo], _ context: String) {
        let facts = store.facts
        for now in moments(facts) {
            let read = store.read(at: now)
            guard read.count != facts.count else { continue }
            #expect(state(read, renewals, at: now) == state(facts, renewals, at: now), "\(context) at \(now)")
        }
    }

    @Test("a single-product subscriber's old periods leave the read, and the state stays the full history's",
          arguments: [1, 2, 3, 5, 8, 13, 21, 34] as [UInt64])
    func singleProduct(seed: UInt64) {
        let history = SubscriberHistory(seed: seed, periods: 60, products: ["other.month"])
        var store = SupersessionStore()
        for transaction in history.transactions { store.write(transaction) }
        Self.checkEveryMoment(store, history.renewals, "seed \(seed)")
        let last = store.facts.compactMap(\.expiresDate).max() ?? F.start
        // What grows with renewals no longer reaches the read: a handful of periods stay.
        #expect(store.read(at: last).count <= 12, "seed \(seed): \(store.read(at: last).count) of \(store.facts.count)")
    }

    @Test("delivered in any order, with crossgrades, upgrades and refunds, the read state is the full state",
          arguments: Array(UInt64(1)...24))
    func anyOrder(seed: UInt64) {
        let products = seed % 2 == 0 ? ["plus.gold.month", "plus.silver.month", "plus.gold.year", "plus.silver.year"] : ["plus.silver.month"]
        let history = SubscriberHistory(seed: seed, periods: 40, products: products)
        var rng = SplitMix64(seed: seed &* 31)
        var store = SupersessionStore()
        for (index, transaction) in history.transactions.shuffled(using: &rng).enumerated() {
            store.write(transaction)
            if index % 10 == 0 { Self.checkEveryMoment(store, history.renewals, "seed \(seed), write \(index)") }
        }
        Self.checkEveryMoment(store, history.renewals, "seed \(seed)")
    }

    @Test("the rules' random histories: the read state is the full state after every step",
          arguments: [1, 7, 42, 2024, 0xDEAD_BEEF, 99, 123_456] as [UInt64])
    func randomHistories(seed: UInt64) throws {
        var generator = RandomHistoryGenerator(seed: seed)
        var store = SupersessionStore()
        var written = 0
        for step in 0..<300 {
            try generator.step()
            for transaction in generator.history.transactions[written...] { store.write(transaction) }
            written = generator.history.transactions.count
            let now = generator.now
            #expect(Self.state(store.read(at: now), generator.history.renewalInfos, at: now)
                        == Self.state(store.facts, generator.history.renewalInfos, at: now), "seed \(seed), step \(step)")
        }
    }

    @Test("a second product in the group clears every mark; a refund of the superseding period clears its marks")
    func clearing() {
        var store = SupersessionStore()
        var start = F.start
        var periods: [StoreTransaction] = []
        for index in 0..<5 {
            let period = F.period("m\(index)", "plus.silver.month", from: start, original: "m0")
            periods.append(period)
            store.write(period)
            start = period.expiresDate ?? start
        }
        #expect(store.markedCount == 4)
        #expect(store.read(at: start).map(\.transactionId) == ["m4"])
        // Before the superseding period was bought, the old one is still read.
        #expect(store.read(at: periods[4].purchaseDate.addingTimeInterval(-1)).map(\.transactionId) == ["m3", "m4"])
        var refunded = periods[4]
        refunded.revocationDate = start.addingTimeInterval(-60)
        refunded.signedDate = start
        store.write(refunded)
        #expect(store.rows[UTF8Key("m3")]?.mark == nil, "the refunded period's mark is gone")
        #expect(store.markedCount == 3)
        store.write(F.period("g0", "plus.gold.month", from: start, original: "g0"))
        #expect(store.markedCount == 0 && store.cleared == 1)
    }

    @Test("in a group with two products nothing is left out: an old period can be the one the rules fall back on")
    func twoProducts() {
        // Silver renewed once; gold bought inside the renewal replaced it at once, and gold carries an upgrade
        // flag (so it is not in force itself). Once all has ended, the rules fall back on the first silver
        // period: leaving it out would answer gold instead.
        let first = F.period("s0", "plus.silver.month", from: F.start, original: "s0")
        let renewal = F.period("s1", "plus.silver.month", from: first.expiresDate ?? F.start, original: "s0")
        let gold = F.period("z", "plus.gold.month", from: F.day(40), original: "s0", upgraded: true)
        for order in [[first, renewal, gold], [gold, first, renewal], [first, gold, renewal]] {
            var store = SupersessionStore()
            for transaction in order { store.write(transaction) }
            let now = F.day(100)
            let state = Self.state(store.read(at: now), [], at: now)
            #expect(state == Self.state(store.facts, [], at: now))
            #expect(state.subscriptions.first?.productId == "plus.silver.month")
        }
    }

    @Test("after the marks were cleared, one write marks every superseded period again, each by the next one")
    func manyUnmarkedPeriods() {
        // A chain of 5,000 periods with no marks (as after a move between customers), in shuffled order.
        var start = F.start
        var periods: [StoreTransaction] = []
        for index in 0..<5_000 {
            let period = F.period("u\(index)", "other.month", from: start, original: "u0",
                                  offer: index == 0 ? .introductory : nil)
            periods.append(period)
            start = period.expiresDate ?? start
        }
        var rng = SplitMix64(seed: 5)
        guard case .mark(let marks) = PeriodSupersession.plan(after: periods[4_999],
                                                               unsuperseded: periods.shuffled(using: &rng))
        else { Issue.record("a single-product chain was cleared"); return }
        let byId = Dictionary(uniqueKeysWithValues: marks.map { ($0.transactionId, $0) })
        #expect(marks.count == 4_998, "all but the introductory period and the latest")
        #expect(byId["u0"] == nil && byId["u4999"] == nil)
        for index in [1, 2, 2_500, 4_998] {
            #expect(byId["u\(index)"]?.by == "u\(index + 1)")
            #expect(byId["u\(index)"]?.from == periods[index + 1].purchaseDate)
        }
    }

    @Test("ids differing only in Unicode normalization are different chains and products")
    func bytes() {
        let nfc = "caf\u{E9}", nfd = "cafe\u{301}"
        var first = F.period("a1", "other.month", from: F.start, original: nfc)
        var second = F.period("a2", "other.month", from: first.expiresDate ?? F.start, original: nfd)
        first.subscriptionGroupIdentifier = "other"
        second.subscriptionGroupIdentifier = "other"
        #expect(!PeriodSupersession.supersedes(second, first))
        second.originalTransactionId = nfc
        #expect(PeriodSupersession.supersedes(second, first))
        first.offerType = .introductory
        #expect(!PeriodSupersession.supersedes(second, first), "the introductory period stays for the eligibility")
    }
}
