import Foundation
import TallyCore

/// A customer state as `state --json` prints it:
/// `{"entitlements":[...],"nonConsumables":[...],"subscriptions":[...],"balances":{...},"debts":{...},"source":"appStore"}`.
struct StateView: Encodable {
    struct Subscription: Encodable {
        var groupId: String
        var productId: String
        var status: SubscriptionState
        var expiresDate: Date?
        var gracePeriodExpiresDate: Date?
        var willRenew: Bool
        var pendingProductId: String?
    }

    struct NonRenewing: Encodable {
        var productId: String
        var expiresDate: Date
        var active: Bool
    }

    struct Entitlement: Encodable {
        var feature: String
        var productIds: [String]
        var expiresDate: Date?
    }

    var entitlements: [String]
    var entitlementDetails: [Entitlement]
    var nonConsumables: [String]
    var subscriptions: [Subscription]
    var nonRenewing: [NonRenewing]
    var balances: [String: Decimal]
    var debts: [String: Decimal]
    /// Whose view: ``appStoreSource`` (the sandbox: purchases and refunds, no spends) or the app's.
    var source: String

    init(_ state: CustomerState, source: String = Self.appStoreSource) {
        self.source = source
        entitlements = state.entitlements.map(\.feature)
        entitlementDetails = state.entitlements.map {
            Entitlement(feature: $0.feature, productIds: $0.productIds, expiresDate: $0.expiresDate)
        }
        nonConsumables = state.nonConsumables
        subscriptions = state.subscriptions.map {
            Subscription(groupId: $0.groupId, productId: $0.productId, status: $0.status, expiresDate: $0.expiresDate,
                         gracePeriodExpiresDate: $0.gracePeriodExpiresDate, willRenew: $0.willRenew,
                         pendingProductId: $0.pendingProductId)
        }
        nonRenewing = state.nonRenewing.map {
            NonRenewing(productId: $0.productId, expiresDate: $0.expiresDate, active: $0.isActive)
        }
        balances = state.balances
        debts = state.debts.filter { $0.value != 0 }
    }

    /// What `source` says in `state --json`: the App Store, which knows purchases and refunds but no spends.
    static let appStoreSource = "appStore"

    /// The state for people, as the App Store sees it.
    func text(now: Date) -> String {
        var lines = ["As of \(now.formatted(.iso8601))",
                     "App Store view (the sandbox): purchases and refunds only; spends made in the app are not "
                        + "known here ('tally market status' shows the app's balances)"]
        lines.append("Entitlements: " + (entitlements.isEmpty ? "none" : entitlements.joined(separator: ", ")))
        lines.append("Non-consumables: " + (nonConsumables.isEmpty ? "none" : nonConsumables.joined(separator: ", ")))
        for sub in subscriptions {
            let word = sub.status.isEntitled ? "until" : "since"
            let expiry = sub.expiresDate.map { " \(word) \($0.formatted(.iso8601))" } ?? ""
            let pending = sub.pendingProductId.map { ", then \($0)" } ?? ""
            lines.append("Subscription \(sub.groupId): \(sub.productId) \(sub.status.rawValue)\(expiry)"
                + (sub.willRenew ? ", renews" : ", does not renew") + pending)
        }
        for item in nonRenewing {
            lines.append("\(item.productId): \(item.active ? "active" : "ended") until "
                + item.expiresDate.formatted(.iso8601))
        }
        for (currency, amount) in balances.sorted(by: { $0.key < $1.key }) {
            lines.append("\(currency.uppercased()): \(amount) (purchased, net of refunds; before any spend in the app)")
        }
        for (currency, amount) in debts.sorted(by: { $0.key < $1.key }) {
            lines.append("\(currency.uppercased()) owed: \(amount)")
        }
        return lines.joined(separator: "\n")
    }
}
