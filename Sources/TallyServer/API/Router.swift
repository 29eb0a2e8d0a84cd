import TallyHTTP

/// Finds the route of a request path (still percent-encoded) and decodes its parameters.
enum Router {
    /// The longest `appUserId` accepted, in UTF-8 bytes.
    static let maxAppUserIdBytes = 16_384

    /// The route and parameters; nil when no route has this shape (404). Throws `invalid_request` for a
    /// parameter that is badly percent-encoded, not UTF-8, empty or too long.
    /// `notificationsPath` is where App Store Server Notifications arrive (`notifications.path`), matched exactly.
    /// `method` tells apart the routes that share a path (`GET` and `PUT /v1/offerings`).
    static func match(_ path: String, method: String = "GET", notificationsPath: String = NotificationSettings.defaultPath)
        throws(APIError) -> RouteMatch?
    {
        if path == notificationsPath { return RouteMatch(route: .appleNotifications) }
        switch path {
        case "/v1/offerings": return RouteMatch(route: method == "PUT" ? .offeringsUpdate : .offerings)
        case "/v1/offerings/document": return RouteMatch(route: .offeringsDocument)
        case "/v1/offerings/history": return RouteMatch(route: .offeringsHistory)
        case "/v1/offerings/rollback": return RouteMatch(route: .offeringsRollback)
        case "/v1/offers/promotional/signature": return RouteMatch(route: .promotionalOfferSignature)
        case "/v1/offers/introductory/eligibility": return RouteMatch(route: .introductoryOfferEligibility)
        case "/v1/openapi.yaml": return RouteMatch(route: .openAPI)
        case "/v1/dashboard/webhooks/retry": return RouteMatch(route: .dashboardWebhookRetry)
        case "/healthz": return RouteMatch(route: .healthz)
        case "/readyz": return RouteMatch(route: .readyz)
        case "/metrics": return RouteMatch(route: .metrics)
        case "/dashboard": return RouteMatch(route: .dashboardFile, file: DashboardFiles.redirectToPage)
        case "/dashboard/": return RouteMatch(route: .dashboardFile)
        default: break
        }
        if path.hasPrefix("/v1/dashboard/") {
            return Route(rawValue: path).map { RouteMatch(route: $0) }.flatMap {
                $0.route.role == .dashboard && $0.route.rawValue.hasPrefix("/v1/dashboard/") ? $0 : nil
            }
        }
        if path.hasPrefix("/dashboard/") {
            return RouteMatch(route: .dashboardFile, file: String(path.dropFirst("/dashboard/".count)))
        }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        guard segments.count >= 4, segments[0].isEmpty, segments[1] == "v1", segments[2] == "customers" else {
            return nil
        }
        let route: Route
        var currency = ""
        switch segments.count {
        case 4: route = .customer
        case 5 where segments[4] == "transactions": route = .transactions
        case 5 where segments[4] == "receipts": route = .receipts
        case 5 where segments[4] == "history": route = .history
        case 5 where segments[4] == "reconcile": route = .reconcile
        case 5 where segments[4] == "account-token": route = .accountToken
        case 5 where segments[4] == "aliases": route = .aliases
        case 5 where segments[4] == "attributes": route = .attributes
        case 7 where segments[4] == "currencies" && segments[6] == "spend":
            route = .spend
            currency = try decode(segments[5], name: "currency")
        default: return nil
        }
        let appUserId = try decode(segments[3], name: "appUserId")
        guard appUserId.utf8.count <= maxAppUserIdBytes else {
            throw .invalidRequest("appUserId is \(appUserId.utf8.count) bytes; the limit is \(maxAppUserIdBytes)")
        }
        return RouteMatch(route: route, appUserId: appUserId, currency: currency)
    }

    private static func decode(_ segment: Substring, name: String) throws(APIError) -> String {
        guard let text = HTTPRequest.decodePathSegment(segment) else {
            throw .invalidRequest("\(name) is not valid percent-encoded UTF-8")
        }
        guard !text.isEmpty else { throw .invalidRequest("\(name) is empty") }
        return text
    }
}
