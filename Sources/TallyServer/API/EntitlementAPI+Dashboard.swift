import Foundation
import TallyCore
import TallyHTTP
import TallyStorage

extension EntitlementAPI {
    /// The page size of the dashboard's lists when `limit` is not given, and the largest accepted.
    static let defaultDashboardLimit = 50, maximumDashboardLimit = 500

    /// 200 with a dashboard JSON body: never cached (customer data), never sniffed.
    static func dashboardJSON(_ body: [UInt8]) -> HTTPResponse {
        var response = APIResponse.json(body)
        response.headers += [.init("Cache-Control", "no-store"), .init("X-Content-Type-Options", "nosniff")]
        return response
    }

    /// The store's dashboard queries; 501 for a store without them.
    private var dashboardStore: any DashboardStore {
        get throws(APIError) {
            guard let store = store as? any DashboardStore else {
                throw APIError(501, "not_implemented", "this customer store has no dashboard queries yet")
            }
            return store
        }
    }

    /// The days an overview covers: `days=7|30|90` ending today (default 30), or `from=YYYY-MM-DD&to=YYYY-MM-DD`
    /// (UTC days, both included, `from` ≤ `to`, at most `DashboardDays.maximumCount` days).
    static func dashboardDays(_ request: HTTPRequest, now: Date) throws(APIError) -> DashboardDays {
        let from = request.query["from"], to = request.query["to"], days = request.query["days"]
        guard from != nil || to != nil else {
            guard let text = days, !text.isEmpty else { return DashboardDays(count: 30, endingAt: now) }
            guard let value = Int(text), DashboardDays.allowedCounts.contains(value) else {
                throw .invalidRequest("days must be 7, 30 or 90")
            }
            return DashboardDays(count: value, endingAt: now)
        }
        guard days == nil else { throw .invalidRequest("give days or from and to, not both") }
        guard let from, let to else { throw .invalidRequest("from and to go together: give both") }
        guard let first = DashboardDays.dayNumber(from) else {
            throw .invalidRequest("from must be a date as YYYY-MM-DD (UTC), 1970 or later")
        }
        guard let last = DashboardDays.dayNumber(to) else {
            throw .invalidRequest("to must be a date as YYYY-MM-DD (UTC), 1970 or later")
        }
        guard first <= last else { throw .invalidRequest("from must not be after to") }
        guard last - first < Int64(DashboardDays.maximumCount) else {
            throw .invalidRequest("the range is \(last - first + 1) days; the most is \(DashboardDays.maximumCount)")
        }
        return DashboardDays(firstDay: first, lastDay: last)
    }

    /// `GET /v1/dashboard/overview?days=7|30|90` or `?from=&to=`.
    func dashboardOverview(_ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let now = clock.now()
        let days = try Self.dashboardDays(request, now: now)
        let count = days.count
        let store = try dashboardStore
        let overview = try storeCall { () throws(CustomerStoreError) in try store.dashboardOverview(days: days, now: now) }
        let mrr = MonthlyRecurringRevenue.compute(overview.products, catalog: configuration.catalog)
        return Self.dashboardJSON(JSONWriter.object { writer in
            writer.field("now", now)
            writer.key("range")
            writer.object { writer in
                writer.field("days", count)
                writer.field("start", days.start)
                writer.field("end", days.end)
                writer.field("from", days.labels.first)
                writer.field("to", days.labels.last)
            }
            writer.field("activeSubscriptions", overview.products.reduce(0) { $0 + $1.active })
            writer.field("activeTrials", overview.products.reduce(0) { $0 + $1.trials })
            writer.field("inBillingRetry", overview.inBillingRetry)
            writer.field("inGracePeriod", overview.inGracePeriod)
            writer.objects("mrr", mrr.amounts) { writer, item in
                writer.field("currency", item.currency)
                writer.field("amount", item.amount)
            }
            writer.field("mrrUnpricedSubscriptions", mrr.unpriced)
            writer.objects("products", overview.products) { writer, item in
                writer.field("productId", item.productId)
                writer.field("active", item.active)
                writer.field("trials", item.trials)
            }
            writer.objects("daily", days.labels) { writer, day in
                writer.field("day", day)
                writer.field("newCustomers", overview.newCustomers[day] ?? 0)
                for (name, amounts) in [("revenue", overview.revenue), ("refunds", overview.refunds)] {
                    writer.objects(name, amounts.filter { $0.day == day }) { writer, item in
                        writer.field("currency", item.currency)
                        writer.field("amount", Decimal(item.milliunits) / 1000)
                        writer.field("count", item.count)
                    }
                }
            }
        })
    }

    /// `GET /v1/dashboard/customers?q=`: customers by `appUserId` prefix or an exact id.
    func dashboardCustomers(_ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        guard let text = request.query["q"], !text.isEmpty else { throw .invalidRequest("q is required: an id to find") }
        guard text.utf8.count <= Router.maxAppUserIdBytes else {
            throw .invalidRequest("q is \(text.utf8.count) bytes; the limit is \(Router.maxAppUserIdBytes)")
        }
        let limit = try dashboardLimit(request)
        let store = try dashboardStore
        let matches = try storeCall { () throws(CustomerStoreError) in try store.searchCustomers(text, limit: limit) }
        return Self.dashboardJSON(JSONWriter.object { writer in
            writer.objects("customers", matches) { writer, match in
                writer.field("appUserId", match.appUserId)
                writer.field("matchedBy", match.matchedBy)
            }
        })
    }

    /// `GET /v1/dashboard/transactions?productId=&type=&refunded=&cursor=&limit=`: newest purchase first, one page.
    func dashboardTransactions(_ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        var filter = DashboardTransactionFilter()
        if let productId = request.query["productId"], !productId.isEmpty { filter.productId = productId }
        if let type = request.query["type"], !type.isEmpty { filter.type = type }
        switch request.query["refunded"] {
        case nil, "": break
        case "true": filter.refunded = true
        case "false": filter.refunded = false
        default: throw .invalidRequest("refunded must be true or false")
        }
        let (fetched, limit) = try dashboardPage(request, .transactions) { (store, before, limit) throws(CustomerStoreError) in
            try store.latestTransactions(filter, before: before, limit: limit)
        }
        let rows = fetched.prefix(limit)
        return Self.dashboardJSON(JSONWriter.object { writer in
            writer.field("nextCursor", fetched.count > limit ? rows.last?.position.cursor(.transactions) : nil)
            writer.objects("transactions", Array(rows)) { writer, row in
                writer.transactionIds(row.appUserId, row.transactionId, row.originalTransactionId, row.productId)
                writer.field("type", row.type)
                writer.field("purchaseDate", row.purchaseDate)
                writer.field("expiresDate", row.expiresDate)
                writer.field("revocationDate", row.revocationDate)
                writer.field("refunded", row.revocationDate != nil)
                writer.milliunits("price", row.price)
                writer.field("currency", row.currency)
                writer.key("offerType")
                if let offer = row.offerType { writer.integer(offer) } else { writer.null() }
            }
        })
    }

    /// `GET /v1/dashboard/notifications?cursor=&limit=`: newest received first, one page.
    func dashboardNotifications(_ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let (fetched, limit) = try dashboardPage(request, .notifications) { (store, before, limit) throws(CustomerStoreError) in
            try store.latestNotifications(before: before, limit: limit)
        }
        let rows = fetched.prefix(limit)
        let now = clock.now()
        return Self.dashboardJSON(JSONWriter.object { writer in
            writer.field("nextCursor", fetched.count > limit ? rows.last?.position.cursor(.notifications) : nil)
            writer.objects("notifications", Array(rows)) { writer, row in
                writer.field("notificationUUID", row.notificationUUID)
                writer.field("notificationType", row.notificationType)
                writer.field("subtype", row.subtype)
                writer.field("signedDate", row.signedDate)
                writer.field("receivedDate", row.receivedDate)
                writer.field("appUserId", row.appUserId)
                writer.field("originalTransactionId", row.originalTransactionId)
                writer.field("result", row.result)
                writer.field("anomaly", row.anomaly(at: now))
            }
        })
    }

    /// `GET /v1/dashboard/offers?cursor=&limit=`: the transactions bought with an offer, newest purchase first, one
    /// page, and every offer's count of redemptions (by type, then identifier: none first, then as bytes).
    func dashboardOffers(_ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let (fetched, limit) = try dashboardPage(request, .offers) { (store, before, limit) throws(CustomerStoreError) in
            try store.offerRedemptions(before: before, limit: limit)
        }
        let rows = fetched.redemptions.prefix(limit)
        return Self.dashboardJSON(JSONWriter.object { writer in
            writer.field("nextCursor", fetched.redemptions.count > limit ? rows.last?.position.cursor(.offers) : nil)
            writer.objects("redemptions", Array(rows)) { writer, row in
                writer.transactionIds(row.appUserId, row.transactionId, row.originalTransactionId, row.productId)
                writer.field("offerType", row.offerType)
                writer.field("offerIdentifier", row.offerIdentifier)
                writer.field("offerDiscountType", row.offerDiscountType)
                writer.milliunits("price", row.price)
                writer.field("currency", row.currency)
                writer.field("purchaseDate", row.purchaseDate)
                writer.field("environment", row.environment)
            }
            writer.objects("totals", DashboardOfferTotal.ordered(fetched.totals)) { writer, total in
                writer.field("offerType", total.offerType)
                writer.field("offerIdentifier", total.offerIdentifier)
                writer.field("count", total.count)
            }
        })
    }

    /// `GET /v1/dashboard/catalog`: the `.storekit` products with what the live mapping (the offerings document's) makes of them.
    func dashboardCatalog() -> HTTPResponse {
        let app = offerings.current().rules.configuration
        return Self.dashboardJSON(JSONWriter.object { writer in
            writer.objects("products", configuration.catalog.products) { writer, product in
                writer.field("productId", product.id)
                writer.field("kind", product.kind.rawValue)
                writer.field("referenceName", product.referenceName)
                writer.field("price", product.price)
                writer.field("currency", product.currency)
                writer.field("period", product.subscription?.period.iso8601)
                writer.field("groupId", product.subscription?.groupId)
                writer.field("entitlements", app.entitlements.keys.sorted().filter { app.entitlements[$0]?.contains(product.id) == true })
                let grants = app.currencies.keys.sorted().compactMap { name in
                    app.currencies[name]?[product.id].map { (name, $0) }
                }
                writer.objects("currencies", grants) { writer, grant in
                    writer.field("currency", grant.0)
                    writer.field("amount", grant.1)
                }
            }
        })
    }

    /// What a list route reads for one page: `limit` and `cursor` (a `nextCursor` of `list`) from the request;
    /// `fetch` is asked for one row more than `limit` after the cursor's position, so a fuller answer means a next page.
    private func dashboardPage<Answer>(
        _ request: HTTPRequest, _ list: DashboardListPosition.List,
        _ fetch: (any DashboardStore, DashboardListPosition?, Int) throws(CustomerStoreError) -> Answer
    ) throws(APIError) -> (answer: Answer, limit: Int) {
        let limit = try dashboardLimit(request)
        let before = try dashboardCursor(request, list)
        let store = try dashboardStore
        return (try storeCall { () throws(CustomerStoreError) in try fetch(store, before, limit + 1) }, limit)
    }

    /// The position a `cursor` names (a `nextCursor` this server issued for `list`); nil when none is given.
    private func dashboardCursor(_ request: HTTPRequest, _ list: DashboardListPosition.List) throws(APIError)
        -> DashboardListPosition?
    {
        guard let text = request.query["cursor"], !text.isEmpty else { return nil }
        guard text.utf8.count <= 4 * Router.maxAppUserIdBytes, let position = DashboardListPosition(cursor: text, list: list) else {
            throw .invalidRequest("cursor is not a nextCursor this server issued for the \(list) list")
        }
        return position
    }

    private func dashboardLimit(_ request: HTTPRequest) throws(APIError) -> Int {
        guard let text = request.query["limit"], !text.isEmpty else { return Self.defaultDashboardLimit }
        guard let value = Int(text), (1...Self.maximumDashboardLimit).contains(value) else {
            throw .invalidRequest("limit must be a whole number from 1 to \(Self.maximumDashboardLimit)")
        }
        return value
    }
}

extension JSONWriter {
    /// The members every transaction row of the dashboard's lists starts with: its owner now and Apple's ids.
    mutating func transactionIds(_ appUserId: String, _ transactionId: String, _ originalTransactionId: String,
                                 _ productId: String) {
        field("appUserId", appUserId)
        field("transactionId", transactionId)
        field("originalTransactionId", originalTransactionId)
        field("productId", productId)
    }
}
