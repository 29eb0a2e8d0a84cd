import Foundation
import TallyCore

/// A customer state as `tally sandbox state --json` and `tally market status --json` print it: the server's
/// `customer` object (TallyCore's `CustomerDocument`, one definition for the server, the engine and the CLI) with
/// the CLI's own members around it — `account` first, then the customer's members (`entitlements`,
/// `nonConsumables`, `subscriptions`, `nonRenewing` with `isActive`, `balances`, `debts`), then `source` and any
/// command's extras.
struct StateView {
    let state: CustomerState
    /// Whose view: ``appStoreSource`` (the sandbox: purchases and refunds, no spends) or the app's.
    let source: String

    init(_ state: CustomerState, source: String = Self.appStoreSource) {
        self.state = state
        self.source = source
    }

    /// What `source` says in `state --json`: the App Store, which knows purchases and refunds but no spends.
    static let appStoreSource = "appStore"

    /// The JSON object: `leading` string members, the customer's members, `source`, then `trailing` members, each
    /// encoded by the CLI's encoder (a nil one is left out).
    func json(leading: KeyValuePairs<String, String>, trailing: [(key: String, value: (any Encodable)?)] = [])
        throws -> String
    {
        let encoder = Output.encoder(compact: true)
        var extras: [(String, [UInt8])] = []
        for (key, value) in trailing {
            guard let value else { continue }
            extras.append((key, Array(try encoder.encode(value))))
        }
        let bytes = JSONWriter.object { writer in
            for (key, value) in leading { writer.field(key, value) }
            CustomerDocument.writeMembers(of: state, into: &writer)
            writer.field("source", source)
            for (key, value) in extras { writer.field(key, raw: value) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The state for people, as the App Store sees it.
    func text(now: Date) -> String {
        var lines = ["As of \(now.formatted(.iso8601))",
                     "App Store view (the sandbox): purchases and refunds only; spends made in the app are not "
                        + "known here ('tally market status' shows the app's balances)"]
        let features = state.entitlements.map(\.feature)
        lines.append("Entitlements: " + (features.isEmpty ? "none" : features.joined(separator: ", ")))
        lines.append("Non-consumables: "
            + (state.nonConsumables.isEmpty ? "none" : state.nonConsumables.joined(separator: ", ")))
        for sub in state.subscriptions {
            let word = sub.status.isEntitled ? "until" : "since"
            let expiry = sub.expiresDate.map { " \(word) \($0.formatted(.iso8601))" } ?? ""
            let pending = sub.pendingProductId.map { ", then \($0)" } ?? ""
            lines.append("Subscription \(sub.groupId): \(sub.productId) \(sub.status.rawValue)\(expiry)"
                + (sub.willRenew ? ", renews" : ", does not renew") + pending)
        }
        for item in state.nonRenewing {
            lines.append("\(item.productId): \(item.isActive ? "active" : "ended") until "
                + item.expiresDate.formatted(.iso8601))
        }
        for (currency, amount) in state.balances.sorted(by: { $0.key < $1.key }) {
            lines.append("\(currency.uppercased()): \(amount) (purchased, net of refunds; before any spend in the app)")
        }
        for (currency, amount) in state.debts.sorted(by: { $0.key < $1.key }) where amount != 0 {
            lines.append("\(currency.uppercased()) owed: \(amount)")
        }
        return lines.joined(separator: "\n")
    }
}
