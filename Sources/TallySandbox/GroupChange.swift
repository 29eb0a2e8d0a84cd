import TallyCore

/// How a move between two products of one subscription group takes effect (level 1 is the highest).
enum GroupChange: Sendable, Hashable {
    /// To a higher level: immediate.
    case upgrade
    /// To a lower level: at the next renewal.
    case downgrade
    /// Same level, same period: immediate.
    case crossgradeNow
    /// Same level, different period: at the next renewal.
    case crossgradeAtRenewal

    init(from current: Product, to new: Product) {
        let from = current.subscription?.level ?? 1
        let to = new.subscription?.level ?? 1
        if to < from {
            self = .upgrade
        } else if to > from {
            self = .downgrade
        } else {
            let same = current.subscription.map { Self.length($0.period) } == new.subscription.map { Self.length($0.period) }
            self = same ? .crossgradeNow : .crossgradeAtRenewal
        }
    }

    /// Days for day and week periods, months for month and year periods (`P1W` = `P7D`, `P1Y` = `P12M`).
    private static func length(_ period: SubscriptionPeriod) -> [Int] {
        switch period.unit {
        case .day: [period.value, 0]
        case .week: [7 * period.value, 0]
        case .month: [0, period.value]
        case .year: [0, 12 * period.value]
        }
    }

    /// Whether the change applies now.
    var isImmediate: Bool { self == .upgrade || self == .crossgradeNow }

    /// The notification subtype Apple uses for the change.
    var subtype: String {
        switch self {
        case .upgrade: "UPGRADE"
        case .downgrade: "DOWNGRADE"
        case .crossgradeNow, .crossgradeAtRenewal: "CROSSGRADE"
        }
    }
}
