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
    public static func supersedes(_ later: Transaction, _ earlier: Transaction) -> Bool {
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
    public static func plan(after written: Transaction, unsuperseded: [Transaction]) -> Plan {
        if mayBeAutoRenewable(written), unsuperseded.contains(where: { mixes($0, written) }) { return .clearAll }
        // Periods that may supersede others, by chain and product; a candidate in a group with another product
        // marks nothing.
        var marks: [Mark] = []
        let candidates = unsuperseded.filter {
            $0.type == .autoRenewable && $0.revocationDate == nil && $0.isUpgraded != true && $0.expiresDate != nil
                && $0.subscriptionGroupIdentifier != nil
        }
        guard !candidates.isEmpty else { return .mark([]) }
        let single = candidates.filter { candidate in !unsuperseded.contains { mixes($0, candidate) } }
        for earlier in unsuperseded where earlier.type == .autoRenewable {
            var best: Transaction?
            for later in single where supersedes(later, earlier) {
                if best.map({ later.purchaseDate < $0.purchaseDate }) ?? true { best = later }
            }
            if let best {
                marks.append(Mark(transactionId: earlier.transactionId, from: best.purchaseDate, by: best.transactionId))
            }
        }
        return .mark(marks)
    }

    /// Whether `other` is another product that may share `transaction`'s subscription group (a missing group or
    /// an unknown type may be the catalog's).
    private static func mixes(_ other: Transaction, _ transaction: Transaction) -> Bool {
        guard mayBeAutoRenewable(other), !other.productId.hasSameBytes(as: transaction.productId) else { return false }
        guard let group = transaction.subscriptionGroupIdentifier, let otherGroup = other.subscriptionGroupIdentifier
        else { return true }
        return group.hasSameBytes(as: otherGroup)
    }

    /// Whether a write of `transaction` can change the marks: only an auto-renewable, or a type Tally does not know
    /// (the catalog may call it one), joins a group or supersedes a period; a store may skip
    /// ``plan(after:unsuperseded:)`` for any other write.
    public static func concerns(_ transaction: Transaction) -> Bool {
        mayBeAutoRenewable(transaction)
    }

    /// An auto-renewable, or a type Tally does not know (the catalog may call it one).
    private static func mayBeAutoRenewable(_ transaction: Transaction) -> Bool {
        let kind = ProductKind.of(transaction.type, catalogKind: nil)
        return kind == nil || kind == .autoRenewable
    }
}
