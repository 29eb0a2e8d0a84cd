import Foundation

/// Which stored subscription periods a customer state no longer needs to read, so that reading and computing a
/// subscriber's state does not grow with every renewal.
///
/// A period `earlier` is **superseded** by a period `later` from `later.purchaseDate` on when both are
/// auto-renewables of the same chain, product and subscription group, `later` is clean (no `revocationDate`,
/// not `isUpgraded`, an `expiresDate` after `earlier`'s), `earlier` ended by the time `later` was bought, and
/// `earlier` carries no introductory offer (the group's offer eligibility reads it). From then on, and while
/// the group holds that one product, leaving `earlier` out changes no ``CustomerState``: `later` ranks above it in
/// force, is purchased later, carries the same chain's renewal info, and no change between products (an upgrade
/// replacing a period, a downgrade waiting for one) can involve two periods of one product.
///
/// A store keeps, per stored transaction, the moment it is superseded from and the id of the period that
/// supersedes it, and reads for a state at `now` only the transactions not superseded by `now`. It keeps these
/// marks right with ``plan(after:unsuperseded:)`` after every write of a transaction that is not a consumable,
/// and clears them where the rule's premises may have moved:
/// - a new copy of a transaction clears its own mark and every mark it made (a refund, an upgrade flag, a
///   different chain);
/// - a chain moving between customers clears both customers' marks;
/// - ``Plan/clearAll`` (a second product met in a group) clears the customer's marks.
///
/// Every mark then points at a clean period of the same chain, product and group that is itself unmarked or
/// marked by another such period, so the group's products are those of its unmarked transactions, which is
/// what the plan looks at.
public enum PeriodSupersession {
    /// What a store does to its marks after a write.
    public enum Plan: Equatable, Sendable {
        /// The customer's groups may no longer hold one product each: clear every mark of the customer.
        case clearAll
        /// Mark each listed transaction as superseded from `from` by the transaction `by` (none to mark: empty).
        case mark([Mark])
    }

    /// One transaction to mark superseded.
    public struct Mark: Equatable, Sendable {
        /// The superseded transaction's id.
        public var transactionId: String
        /// From when it is superseded: the superseding period's `purchaseDate`.
        public var from: Date
        /// The superseding period's transaction id.
        public var by: String

        /// Creates a mark.
        public init(transactionId: String, from: Date, by: String) {
            self.transactionId = transactionId
            self.from = from
            self.by = by
        }
    }

    /// Whether `later` supersedes `earlier` (see the type's rule), leaving aside the group holding one product.
    public static func supersedes(_ later: StoreTransaction, _ earlier: StoreTransaction) -> Bool {
        guard later.type == .autoRenewable, earlier.type == .autoRenewable,
              later.revocationDate == nil, later.isUpgraded != true,
              let laterExpires = later.expiresDate, let earlierExpires = earlier.expiresDate,
              let group = later.subscriptionGroupIdentifier, let earlierGroup = earlier.subscriptionGroupIdentifier,
              !earlier.usedIntroductoryOffer,
              earlierExpires <= later.purchaseDate, earlier.purchaseDate < later.purchaseDate,
              earlierExpires < laterExpires,
              !later.transactionId.hasSameBytes(as: earlier.transactionId),
              later.originalTransactionId.hasSameBytes(as: earlier.originalTransactionId),
              later.productId.hasSameBytes(as: earlier.productId),
              group.hasSameBytes(as: earlierGroup)
        else { return false }
        return true
    }

    /// What to do after `written` (a transaction that is not a consumable) was stored for a customer whose
    /// stored transactions that are neither consumables nor marked are `unsuperseded` (`written` among them).
    /// Linear in `unsuperseded` but for sorting each chain's clean periods (a customer's unmarked rows may be many
    /// right after a chain moved or the marks were cleared).
    public static func plan(after written: StoreTransaction, unsuperseded: [StoreTransaction]) -> Plan {
        let products = GroupProducts(unsuperseded)
        if mayBeAutoRenewable(written), products.mixes(written) { return .clearAll }
        // The clean periods that may supersede others, by chain, product and group, in purchase order; none of a
        // group with another product.
        var laterPeriods: [PeriodKey: [StoreTransaction]] = [:]
        for candidate in unsuperseded where candidate.type == .autoRenewable && candidate.revocationDate == nil
            && candidate.isUpgraded != true && candidate.expiresDate != nil && !products.mixes(candidate) {
            guard let key = PeriodKey(candidate) else { continue }
            laterPeriods[key, default: []].append(candidate)
        }
        guard !laterPeriods.isEmpty else { return .mark([]) }
        for key in laterPeriods.keys { laterPeriods[key]?.sort { $0.purchaseDate < $1.purchaseDate } }
        var marks: [Mark] = []
        for earlier in unsuperseded where earlier.type == .autoRenewable {
            guard let key = PeriodKey(earlier), let laters = laterPeriods[key], let ended = earlier.expiresDate
            else { continue }
            // The first period bought once `earlier` had ended, then on to the first that supersedes it.
            var low = 0, high = laters.count
            while low < high {
                let middle = (low + high) / 2
                if laters[middle].purchaseDate < ended { low = middle + 1 } else { high = middle }
            }
            if let best = laters[low...].first(where: { supersedes($0, earlier) }) {
                marks.append(Mark(transactionId: earlier.transactionId, from: best.purchaseDate, by: best.transactionId))
            }
        }
        return .mark(marks)
    }

    /// A chain, product and subscription group, compared as bytes; nil without a group.
    private struct PeriodKey: Hashable {
        let chain: UTF8Key, product: UTF8Key, group: UTF8Key

        init?(_ transaction: StoreTransaction) {
            guard let group = transaction.subscriptionGroupIdentifier else { return nil }
            chain = UTF8Key(transaction.originalTransactionId)
            product = UTF8Key(transaction.productId)
            self.group = UTF8Key(group)
        }
    }

    /// The products of the transactions that may be auto-renewables, by subscription group (a missing group or an
    /// unknown type may be the catalog's, so such a transaction may share any group).
    private struct GroupProducts {
        private var byGroup: [UTF8Key: Set<UTF8Key>] = [:]
        private var groupless: Set<UTF8Key> = []
        private var all: Set<UTF8Key> = []

        init(_ transactions: [StoreTransaction]) {
            for transaction in transactions where PeriodSupersession.mayBeAutoRenewable(transaction) {
                let product = UTF8Key(transaction.productId)
                all.insert(product)
                if let group = transaction.subscriptionGroupIdentifier {
                    byGroup[UTF8Key(group), default: []].insert(product)
                } else {
                    groupless.insert(product)
                }
            }
        }

        /// Whether another product may share `transaction`'s subscription group.
        func mixes(_ transaction: StoreTransaction) -> Bool {
            let product = UTF8Key(transaction.productId)
            guard let group = transaction.subscriptionGroupIdentifier else { return Self.holdsOther(all, product) }
            return Self.holdsOther(byGroup[UTF8Key(group)] ?? [], product) || Self.holdsOther(groupless, product)
        }

        private static func holdsOther(_ products: Set<UTF8Key>, _ product: UTF8Key) -> Bool {
            products.count > 1 || (products.count == 1 && !products.contains(product))
        }
    }

    /// Whether a write of `transaction` can change the marks: only an auto-renewable, or a type Tally does not know
    /// (the catalog may call it one), joins a group or supersedes a period; a store may skip
    /// ``plan(after:unsuperseded:)`` for any other write.
    public static func concerns(_ transaction: StoreTransaction) -> Bool {
        mayBeAutoRenewable(transaction)
    }

    /// An auto-renewable, or a type Tally does not know (the catalog may call it one).
    fileprivate static func mayBeAutoRenewable(_ transaction: StoreTransaction) -> Bool {
        let kind = ProductKind.of(transaction.type, catalogKind: nil)
        return kind == nil || kind == .autoRenewable
    }
}
