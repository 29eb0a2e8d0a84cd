import TallyHTTP

/// The routes of docs/server.md, each with its template (the metrics label), methods and key.
enum Route: String, Sendable, CaseIterable {
    case customer = "/v1/customers/{appUserId}"
    case transactions = "/v1/customers/{appUserId}/transactions"
    case receipts = "/v1/customers/{appUserId}/receipts"
    case history = "/v1/customers/{appUserId}/history"
    case reconcile = "/v1/customers/{appUserId}/reconcile"
    /// The customer's minted `appAccountToken` (docs/server.md, *Account tokens*).
    case accountToken = "/v1/customers/{appUserId}/account-token"
    case spend = "/v1/customers/{appUserId}/currencies/{currency}/spend"
    /// An anonymous id made a second id of the customer (docs/server.md, *Aliases*).
    case aliases = "/v1/customers/{appUserId}/aliases"
    /// The customer's attributes: `POST` merges (public key), `GET` reads (secret key) (docs/server.md, *Attributes*).
    case attributes = "/v1/customers/{appUserId}/attributes"
    case healthz = "/healthz"
    case readyz = "/readyz"
    case metrics = "/metrics"
    /// App Store Server Notifications; its path is `notifications.path` (this template is its metrics label).
    case appleNotifications = "/v1/notifications/apple"
    /// The dashboard's JSON (docs/server.md, *Dashboard*).
    case dashboardOverview = "/v1/dashboard/overview"
    case dashboardCustomers = "/v1/dashboard/customers"
    case dashboardTransactions = "/v1/dashboard/transactions"
    case dashboardNotifications = "/v1/dashboard/notifications"
    case dashboardCatalog = "/v1/dashboard/catalog"
    /// A customer's aliases and attributes, for the dashboard's customer page.
    case dashboardIdentity = "/v1/dashboard/identity"
    /// The transactions bought with an offer, with each offer's count.
    case dashboardOffers = "/v1/dashboard/offers"
    /// The webhook outbox: its counts and its deliveries, newest event first (docs/webhooks.md, *Operations*).
    case dashboardWebhooks = "/v1/dashboard/webhooks"
    /// Makes an undelivered or dead-lettered webhook event due again (secret key: the dashboard key only reads).
    case dashboardWebhookRetry = "/v1/dashboard/webhooks/retry"
    /// The dashboard's static files (no key: the page asks for one and sends it to the JSON routes).
    case dashboardFile = "/dashboard/{file}"
    /// What the app sells: the live offerings document's answer for a placement and customer (docs/server.md, *Offerings*).
    case offerings = "/v1/offerings"
    /// `PUT /v1/offerings`: saves a new version (its template is ``offerings``'s; the raw value only tells them apart).
    case offeringsUpdate = "PUT /v1/offerings"
    /// The live document (or `?version=`) with its version, for editing.
    case offeringsDocument = "/v1/offerings/document"
    /// Every saved version, newest first.
    case offeringsHistory = "/v1/offerings/history"
    /// Saves an earlier version's document again.
    case offeringsRollback = "/v1/offerings/rollback"
    /// A promotional offer's V1 signature and V2 JWS, signed with the in-app purchase key (docs/server.md, *Offers*).
    case promotionalOfferSignature = "/v1/offers/promotional/signature"
    /// An introductory offer eligibility JWS from the customer's stored history (docs/server.md, *Offers*).
    case introductoryOfferEligibility = "/v1/offers/introductory/eligibility"
    /// This API's OpenAPI 3.1 description (docs/openapi.yaml), YAML, no key.
    case openAPI = "/v1/openapi.yaml"

    /// The template: the metrics label and the access log's route.
    var template: String { self == .offeringsUpdate ? Route.offerings.rawValue : rawValue }

    /// The one method the route answers.
    var method: String {
        switch self {
        case .customer, .history, .healthz, .readyz, .metrics, .dashboardOverview, .dashboardCustomers,
             .dashboardTransactions, .dashboardNotifications, .dashboardCatalog, .dashboardFile, .offerings,
             .offeringsDocument, .offeringsHistory, .dashboardIdentity, .dashboardOffers, .dashboardWebhooks,
             .openAPI: "GET"
        case .transactions, .receipts, .spend, .appleNotifications, .reconcile, .accountToken, .offeringsRollback,
             .aliases, .attributes, .promotionalOfferSignature, .introductoryOfferEligibility,
             .dashboardWebhookRetry: "POST"
        case .offeringsUpdate: "PUT"
        }
    }

    /// Whether the route's 2xx answers carry a `customer` state, which the server signs (`Tally-Signature`,
    /// ``AnswerSigner``) when it has a signing key.
    var answersCustomerState: Bool {
        switch self {
        case .customer, .transactions, .receipts, .reconcile, .spend: true
        default: false
        }
    }

    /// Whether a `GET` of the route may be served by a PostgreSQL replica (`store.replicas`): the customer's reads,
    /// the offerings and the dashboard. Everything else, a write's own reads included, reads the primary.
    var readsFromReplica: Bool {
        switch self {
        case .customer, .history, .attributes, .offerings, .offeringsDocument, .offeringsHistory, .dashboardOverview,
             .dashboardCustomers, .dashboardTransactions, .dashboardNotifications, .dashboardIdentity, .dashboardOffers:
            true
        default: false
        }
    }

    /// Whether the route answers one customer's state or history, which no cache between the server and the app
    /// may keep (`Cache-Control: no-store` on every answer, errors included).
    var isCustomerScoped: Bool {
        switch self {
        case .customer, .transactions, .receipts, .history, .reconcile, .spend, .accountToken, .aliases,
             .attributes: true
        default: false
        }
    }

    /// Whether a public key may call this secret route with a customer token, when `offers` allows it (the offer
    /// routes, docs/server.md *Offers*): the handler decides from the body and the policy.
    var takesCustomerToken: Bool { self == .promotionalOfferSignature || self == .introductoryOfferEligibility }

    /// Whether a key of `keyRole` may call the route (a route with no ``role`` takes no key at all).
    func admits(_ keyRole: KeyRole) -> Bool {
        switch keyRole {
        case .secret: true
        case .public: role == .public
        case .dashboard: method == "GET" && role != nil
        }
    }

    /// The key the route needs; nil for none. A secret key may call every route; a dashboard key every `GET`
    /// route that takes a key (``admits(_:)``).
    var role: KeyRole? {
        switch self {
        case .customer, .transactions, .receipts, .accountToken, .offerings, .aliases, .attributes: .public
        case .history, .spend, .reconcile, .offeringsUpdate, .offeringsRollback, .promotionalOfferSignature,
             .introductoryOfferEligibility, .dashboardWebhookRetry: .secret
        case .dashboardOverview, .dashboardCustomers, .dashboardTransactions, .dashboardNotifications,
             .dashboardCatalog, .offeringsDocument, .offeringsHistory, .dashboardIdentity, .dashboardOffers,
             .dashboardWebhooks: .dashboard
        case .healthz, .readyz, .metrics, .dashboardFile, .openAPI: nil
        case .appleNotifications: nil  // the signature is the authentication
        }
    }
}

/// A request's route and its decoded path parameters.
struct RouteMatch: Sendable {
    var route: Route
    var appUserId: String = ""
    var currency: String = ""
    /// The file under `/dashboard/` (empty for the page itself), not decoded: only known names are served.
    var file: String = ""
}
