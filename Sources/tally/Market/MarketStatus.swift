import Foundation
import Tally
import TallyCore

/// What `status` shows: `tally sandbox state --json`'s shape (the server's `customer` object, ``StateView``) with
/// `"device"`, `"source": "app"` (the sandbox's is `"appStore"`), `"pending"`, `"canMakePayments"` and `"server"`;
/// and the labels for people.
struct MarketStatus {
    /// A purchase waiting for Ask to Buy approval.
    struct Pending: Encodable {
        var purchaseId: String
        var productId: String
        var quantity: Int
        var date: Date
        var context: PurchaseContext
    }

    let state: CustomerState
    let configuration: AppConfiguration
    let pending: [Pending]
    /// Original transaction id → when the subscription chain's latest revoked transaction was revoked.
    let revocations: [String: Date]
    let account: String
    let device: String
    /// Whether the account may buy (parental controls off); nil when the sandbox could not say.
    let canMakePayments: Bool?
    /// With `--server`: where the state comes from.
    var server: ServerView?

    /// `"server"` in `status --json`: the linked server, the customer, and the engine's ``StateSource``.
    struct ServerView: Encodable {
        var url: String
        var appUserId: String
        /// `server`, `savedServerState` or `localCache`.
        var stateSource: String
        /// When the server answered the state shown.
        var serverStateDate: Date?
        /// Why the server's last answer was not usable (``Store/serverProblem``); nil when it was.
        var problem: Problem?
    }

    /// `"problem"` in `status --json`: `kind` `unreachable`, `rateLimited` (with `retryAfter` seconds when the
    /// server named them) or `serverError` (with `status`), and `message`, the engine's sentence.
    struct Problem: Encodable {
        var kind: String
        var retryAfter: Int?
        var status: Int?
        var message: String

        init(_ problem: ServerProblem) {
            message = problem.description
            switch problem {
            case .unreachable: kind = "unreachable"
            case .rateLimited(let seconds, _): kind = "rateLimited"; retryAfter = seconds; status = 429
            case .serverError(let code, _, _): kind = "serverError"; status = code
            }
        }
    }

    init(state: CustomerState, configuration: AppConfiguration, pending: [PendingPurchase], options: MarketOptions,
         canMakePayments: Bool?, history: PurchaseHistory = PurchaseHistory()) {
        self.state = state
        self.configuration = configuration
        var revocations: [String: Date] = [:]
        for transaction in history.transactions {
            if let date = transaction.revocationDate {
                revocations[transaction.originalTransactionId] = max(date, revocations[transaction.originalTransactionId] ?? date)
            }
        }
        self.revocations = revocations
        self.pending = pending.map {
            Pending(purchaseId: $0.id, productId: $0.productId, quantity: $0.quantity, date: $0.date,
                    context: $0.context)
        }
        account = options.account
        device = options.device
        self.canMakePayments = canMakePayments
    }

    /// What `source` says in `status --json`: the app's own customer file, where spends are.
    static let source = "app"

    /// `status --json`'s object.
    func json() throws -> String {
        try StateView(state, source: Self.source).json(
            leading: ["account": account, "device": device],
            trailing: [("pending", pending), ("canMakePayments", canMakePayments), ("server", server)])
    }

    /// The line saying where the state shown comes from, with a server.
    private func sourceLine(_ server: ServerView) -> String {
        let date = server.serverStateDate.map { $0.formatted(.iso8601) } ?? "never"
        // A 429 or a 5xx is not "cannot be reached": the engine's typed reason says which it was.
        let why = server.problem?.message ?? "\(server.url) cannot be reached"
        switch server.stateSource {
        case "server": return "State: the server's (\(server.url), customer \(server.appUserId)); spends are the app backend's"
        case "savedServerState":
            return "State: OFFLINE — the server's last state, saved \(date), with this device's purchases not posted "
                + "yet (\(why); server \(server.url), customer \(server.appUserId))"
        default:
            return "State: OFFLINE — this device's own purchases (\(why); server \(server.url); nothing of "
                + "the server's is saved for customer \(server.appUserId))"
        }
    }

    /// The labels of the demo app: `COINS: n`, `Premium: LOCKED|UNLOCKED`, features, subscriptions, pending,
    /// under a line saying whose view it is.
    var text: String {
        var lines = [server == nil
            ? "App view (account \(account), device \(device)): balances after the app's spends; "
                + "'tally sandbox state' is the App Store's view and knows no spends"
            : "App view (account \(account), device \(device))"]
        if let server { lines.append(sourceLine(server)) }
        for currency in configuration.currencies.keys.sorted() {
            lines.append("\(currency.uppercased()): \(state.balance(currency))")
            if let debt = state.debts[currency], debt != 0 { lines.append("\(currency.uppercased()) owed: \(debt)") }
        }
        let features = state.entitlements.map(\.feature)
        if configuration.entitlements["premium"] != nil {
            lines.append("Premium: " + (features.contains("premium") ? "UNLOCKED" : "LOCKED"))
        }
        let others = features.filter { $0 != "premium" }
        lines.append("Features: " + (others.isEmpty ? "none" : others.joined(separator: ", ")))
        for sub in state.subscriptions {
            lines.append("Subscription \(sub.productId): \(sub.status.rawValue)\(dateText(sub))"
                + (sub.willRenew ? ", renews" : ", does not renew")
                + (sub.pendingProductId.map { " as \($0)" } ?? ""))
        }
        for item in state.nonRenewing {
            lines.append("\(item.productId): \(item.isActive ? "active" : "ended") until "
                + item.expiresDate.formatted(.iso8601))
        }
        for item in pending {
            lines.append("Pending: \(item.productId) ×\(item.quantity) (purchase \(item.purchaseId), waits for approval)")
        }
        if let canMakePayments {
            lines.append("Payments: " + (canMakePayments ? "allowed" : "not allowed (parental controls)"))
        }
        return lines.joined(separator: "\n")
    }

    /// The date a subscription's status is about: grace ends, revoked on, otherwise expires.
    private func dateText(_ sub: CustomerState.Subscription) -> String {
        switch sub.status {
        case .inGracePeriod:
            let end = sub.gracePeriodExpiresDate ?? sub.expiresDate
            return end.map { " until \($0.formatted(.iso8601)) (grace period; renewal failed)" } ?? ""
        case .revoked:
            return revocations[sub.originalTransactionId].map { " on \($0.formatted(.iso8601))" } ?? ""
        case .subscribed:
            return sub.expiresDate.map { " until \($0.formatted(.iso8601))" } ?? ""
        case .inBillingRetry, .expired:
            return sub.expiresDate.map { " since \($0.formatted(.iso8601))" } ?? ""
        }
    }
}
