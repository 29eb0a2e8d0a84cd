/// How moving from one auto-renewable product to another of the same group takes effect
/// (subscription-lifecycle.md §1.1).
public enum SubscriptionChange: String, Sendable, Hashable, Codable, CaseIterable {
    /// To a higher level (smaller level number): immediately, a new period starts.
    case upgrade
    /// To a lower level: at the next renewal.
    case downgrade
    /// To another product of the same level and the same period length: immediately.
    case crossgradeImmediate
    /// To another product of the same level with a different period length: at the next renewal.
    case crossgradeAtRenewal
    /// The same product: nothing changes.
    case same
    /// The products are not auto-renewables of one group: a separate purchase, not a change.
    case unrelated

    /// Classifies a change from `from` to `to` by their groups, levels and periods.
    public static func classify(from: CatalogProduct, to: CatalogProduct) -> SubscriptionChange {
        if from.id == to.id { return .same }
        guard let old = from.subscription, let new = to.subscription, old.groupId == new.groupId else {
            return .unrelated
        }
        return classify(fromLevel: old.level, fromPeriod: old.period, toLevel: new.level, toPeriod: new.period)
    }

    /// Classifies a change between two different products of one group from their levels and periods.
    static func classify(fromLevel: Int, fromPeriod: SubscriptionDuration,
                         toLevel: Int, toPeriod: SubscriptionDuration) -> SubscriptionChange {
        if toLevel < fromLevel { return .upgrade }
        if toLevel > fromLevel { return .downgrade }
        return fromPeriod.hasSameLength(as: toPeriod) ? .crossgradeImmediate : .crossgradeAtRenewal
    }

    /// True when the new product replaces the old one at once (upgrade, same-length crossgrade);
    /// false when it waits for the next renewal or nothing changes.
    public var takesEffectImmediately: Bool {
        self == .upgrade || self == .crossgradeImmediate
    }
}

extension SubscriptionDuration {
    /// Whether two periods always last equally long (`P1W` = `P7D`, `P1Y` = `P12M`).
    func hasSameLength(as other: SubscriptionDuration) -> Bool {
        normalized == other.normalized
    }

    /// Days for day and week periods, months for month and year periods.
    private var normalized: (days: Int, months: Int) {
        switch unit {
        case .day: (value, 0)
        case .week: (7 * value, 0)
        case .month: (0, value)
        case .year: (0, 12 * value)
        }
    }
}
