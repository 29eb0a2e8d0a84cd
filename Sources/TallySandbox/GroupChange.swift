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
            self = current.subscription?.period == new.subscription?.period ? .crossgradeNow : .crossgradeAtRenewal
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
