import TallyHTTP

/// The routes of docs/server.md, each with its template (the metrics label), methods and key.
enum Route: String, Sendable, CaseIterable {
    case customer = "/v1/customers/{appUserId}"
    case transactions = "/v1/customers/{appUserId}/transactions"
    case receipts = "/v1/customers/{appUserId}/receipts"
    case history = "/v1/customers/{appUserId}/history"
    case reconcile = "/v1/customers/{appUserId}/reconcile"
    case spend = "/v1/customers/{appUserId}/currencies/{currency}/spend"
    case healthz = "/healthz"
    case readyz = "/readyz"
    case metrics = "/metrics"
    /// App Store Server Notifications; its path is `notifications.path` (this template is its metrics label).
    case appleNotifications = "/v1/notifications/apple"

    /// The one method the route answers.
    var method: String {
        switch self {
        case .customer, .history, .healthz, .readyz, .metrics: "GET"
        case .transactions, .receipts, .spend, .appleNotifications, .reconcile: "POST"
        }
    }

    /// The key the route needs; nil for none.
    var role: KeyRole? {
        switch self {
        case .customer, .transactions, .receipts: .public
        case .history, .spend, .reconcile: .secret
        case .healthz, .readyz, .metrics: nil
        case .appleNotifications: nil  // the signature is the authentication
        }
    }
}

/// A request's route and its decoded path parameters.
struct RouteMatch: Sendable {
    var route: Route
    var appUserId: String = ""
    var currency: String = ""
}
