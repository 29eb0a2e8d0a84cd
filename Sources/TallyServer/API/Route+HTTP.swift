extension Route {
    /// The methods the route answers: its ``method``, and `HEAD` beside `GET` (the GET's headers, no body).
    var allowedMethods: [String] {
        if self == .attributes { return ["POST", "GET", "HEAD"] }  // GET reads with a secret key
        return method == "GET" ? ["GET", "HEAD"] : [method]
    }

    /// The methods its path answers, for a 405's `Allow` (``offerings`` and ``offeringsUpdate`` share one path).
    var pathMethods: [String] {
        self == .offerings || self == .offeringsUpdate ? ["GET", "HEAD", "PUT"] : allowedMethods
    }

    /// The largest body the route accepts (docs/server.md, *HTTP*): a receipt may be large, a signed transaction
    /// a few KB, a spend a few hundred bytes; routes that take no body accept none.
    func maxBodyBytes(_ limits: ServerLimits, notifications: NotificationSettings = NotificationSettings()) -> Int {
        switch self {
        case .appleNotifications: min(notifications.maxBodyBytes, limits.maxBodyBytes)
        case .receipts: limits.maxBodyBytes
        case .transactions: min(limits.maxTransactionBodyBytes, limits.maxBodyBytes)
        case .spend, .aliases, .promotionalOfferSignature, .introductoryOfferEligibility:
            min(limits.maxSpendBodyBytes, limits.maxBodyBytes)
        case .attributes: limits.maxBodyBytes
        case .offeringsUpdate: limits.maxBodyBytes
        case .offeringsRollback, .dashboardWebhookRetry: min(limits.maxSpendBodyBytes, limits.maxBodyBytes)
        case .customer, .history, .healthz, .readyz, .metrics, .reconcile, .accountToken, .dashboardOverview,
             .dashboardCustomers, .dashboardTransactions, .dashboardNotifications, .dashboardCatalog, .dashboardFile,
             .offerings, .offeringsDocument, .offeringsHistory, .dashboardIdentity, .dashboardOffers, .dashboardWebhooks,
             .openAPI: 0
        }
    }
}

extension Router {
    /// The body limit of a request, chosen from its method and path before any body is read: the route's limit
    /// when the method is one the route answers; 0 otherwise (an unknown path or method is answered from the
    /// head alone, 404 or 405, so there is nothing to read).
    static func maxBodyBytes(method: String, path: String, limits: ServerLimits,
                             notifications: NotificationSettings = NotificationSettings()) -> Int {
        // Only POST and PUT routes take a body: any other method is 0 without matching the path (GET is the hot path).
        guard method == "POST" || method == "PUT",
              let route = (try? match(path, method: method, notificationsPath: notifications.path))??.route,
              route.allowedMethods.contains(method) else { return 0 }
        return route.maxBodyBytes(limits, notifications: notifications)
    }
}
