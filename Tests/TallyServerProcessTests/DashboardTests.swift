import Foundation
import Testing
import TallyCore
import TallySandbox

extension ServerProcessTests {
    /// The dashboard's JSON and files through a real `tally serve`: its numbers are the customer API's.
    @Suite struct Dashboard {
        /// Every customer ``seed(_:)`` writes.
        static let customers = ["ann", "bob", "<img src=x onerror=alert(1)>", "cy", "dan", "eve", "ren", "ret"]

        /// Seeds a purchase, subscriptions (one for the XSS id), a refund, a transfer, a subscription bought 40 days
        /// ago that renewed, and one in billing retry (its renewal info from a DID_FAIL_TO_RENEW notification);
        /// returns every transaction posted, by the customer that owns it now.
        static func seed(_ fixture: ServerFixture) async throws -> [String: [StoreTransaction]] {
            // One sandbox (its transaction ids are unique), its clock 40 days back: two monthly subscriptions
            // first, then 40 days on (one renews, one meets a billing issue), then today's purchases.
            var market = try fixture.market(start: Date().addingTimeInterval(-40 * 86_400))
            let client = fixture.client
            var bought: [String: [StoreTransaction]] = [:]
            market.set(.billingIssue, enabled: true, account: "ret")
            for (customer, product) in [("ren", "market.plus.monthly"), ("ret", "market.plus.monthly")] {
                let (transaction, jws) = try market.buySigned(product, account: customer)
                #expect(try await client.postTransaction(jws, for: customer).status == 200)
                bought[customer, default: []].append(transaction)
            }
            market.advance(by: SandboxDuration(40, .day))
            let renewed = try #require(market.sandbox.transactions(account: "ren").max { $0.purchaseDate < $1.purchaseDate })
            #expect(renewed.transactionId != bought["ren"]?.first?.transactionId, "the sandbox renewed it")
            #expect(try await client.postTransaction(try market.signed(renewed), for: "ren").status == 200)
            bought["ren", default: []].append(renewed)
            let retry = try #require(market.sandbox.renewalInfos(account: "ret").first)
            #expect(retry.isInBillingRetryPeriod == true)
            let notification = ServerNotification(
                notificationType: .didFailToRenew, subtype: retry.gracePeriodExpiresDate == nil ? nil : .gracePeriod,
                notificationUUID: UUID().uuidString, signedDate: retry.signedDate ?? Date(),
                data: NotificationData(bundleId: "com.example.market", environment: .sandbox,
                                       signedTransactionInfo: try market.signed(try #require(bought["ret"]?.first)),
                                       signedRenewalInfo: try market.sign(retry), status: 3))
            let reply = try await Notifications.post(try market.sign(notification), to: client)
            #expect(reply.status == 200, "\(reply)")

            for (customer, product) in [("ann", "market.premium"), ("bob", "market.pro.monthly"),
                                        ("<img src=x onerror=alert(1)>", "market.pro.yearly"),
                                        ("cy", "market.coins.100"), ("dan", "market.removeads")] {
                let (transaction, jws) = try market.buySigned(product, account: customer)
                let reply = try await client.postTransaction(jws, for: customer)
                #expect(reply.status == 200, "\(reply)")
                bought[customer, default: []].append(transaction)
            }
            let refunded = try market.refund(try #require(bought["cy"]?.first).transactionId)
            #expect(try await client.postTransaction(try market.signed(refunded), for: "cy").status == 200)
            bought["cy"] = [refunded]
            // dan's chain posted by eve moves to eve (ownership "transfer").
            let moved = try #require(bought["dan"]?.first)
            #expect(try await client.postTransaction(try market.signed(moved), for: "eve").status == 200)
            bought["eve"] = bought.removeValue(forKey: "dan")
            return bought
        }

        static func get(_ fixture: ServerFixture, _ path: String, key: String? = nil) async throws -> [String: Any] {
            let reply = try await fixture.client.send("GET", path, key: key ?? fixture.keys.dashboardKey)
            #expect(reply.status == 200, "\(path): \(reply)")
            return try reply.json()
        }

        @Test(arguments: ServerFixture.testedStores) func theOverviewCountsWhatTheCustomerAPISays(_ store: String) async throws {
            let fixture = try ServerFixture.on(store)
            let bought = try await Self.seed(fixture)
            let customers = Self.customers
            var statuses: [String] = []
            for id in customers {
                let customer = try await fixture.client.customer(id)
                statuses += (customer["subscriptions"] as? [[String: Any]] ?? []).compactMap { $0["status"] as? String }
            }
            #expect(statuses.filter { $0 == "inBillingRetry" || $0 == "inGracePeriod" }.count == 1, "\(statuses)")
            let format = ISO8601DateFormatter()
            format.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            let all: [StoreTransaction] = bought.values.flatMap { $0 }
            for days in [7, 30, 90] {
                let overview = try await Self.get(fixture, "/v1/dashboard/overview?days=\(days)")
                #expect(overview["activeSubscriptions"] as? Int == statuses.filter { $0 == "subscribed" }.count)
                #expect(overview["activeSubscriptions"] as? Int == 3, "bob's monthly, the XSS id's yearly, ren's renewal")
                #expect(overview["inBillingRetry"] as? Int == statuses.filter { $0 == "inBillingRetry" }.count)
                #expect(overview["inGracePeriod"] as? Int == statuses.filter { $0 == "inGracePeriod" }.count)
                let daily = try #require(overview["daily"] as? [[String: Any]])
                #expect(daily.count == days)
                let range = try #require(overview["range"] as? [String: Any])
                let start = try #require((range["start"] as? String).flatMap { format.date(from: $0) })
                func total(_ name: String) -> Decimal {
                    daily.flatMap { $0[name] as? [[String: Any]] ?? [] }
                        .filter { $0["currency"] as? String == "USD" }
                        .reduce(Decimal(0)) { $0 + Decimal(string: "\($1["amount"] ?? 0)")! }
                }
                let paid = all.filter { $0.purchaseDate >= start }.compactMap(\.price).reduce(Int64(0), +)
                #expect(paid > 0, "the sandbox's transactions carry prices")
                #expect(total("revenue") == Decimal(paid) / 1000, "days=\(days)")
                let refunds = all.filter { ($0.revocationDate ?? .distantPast) >= start }.compactMap(\.price).reduce(Int64(0), +)
                #expect(total("refunds") == Decimal(refunds) / 1000)
                #expect(daily.reduce(0) { $0 + ($1["newCustomers"] as? Int ?? 0) } == customers.count,
                        "every customer was first seen today, dan too (his chain moved to eve)")
            }
            // MRR: each subscribed, paid (not introductory) subscription at its catalog price per month, to cents.
            let catalog = try Catalog(storeKitData: try Data(contentsOf: TestPaths.market.appendingPathComponent("Market.storekit")),
                                      fileName: "Market.storekit")
            var expected = Decimal(0)
            let live = all.filter { ($0.expiresDate ?? .distantPast) > Date() && $0.revocationDate == nil }
            for transaction in live where transaction.offerType != .introductory {
                guard let product = catalog.products.first(where: { $0.id == transaction.productId }),
                      let period = product.subscription?.period else { continue }
                let months: Decimal = period.unit == .year ? Decimal(12 * period.value) : Decimal(period.value)
                #expect(period.unit == .year || period.unit == .month)
                expected += product.price / months
            }
            var unrounded = expected
            NSDecimalRound(&expected, &unrounded, 2, .plain)
            let overview = try await Self.get(fixture, "/v1/dashboard/overview")
            let mrr = try #require(overview["mrr"] as? [[String: Any]])
            #expect(mrr.count == 1 && mrr.first?["currency"] as? String == "USD", "\(mrr)")
            let amount = mrr.first.flatMap { Decimal(string: "\($0["amount"] ?? "")") }
            #expect(amount == expected)
            let trials = all.filter { $0.offerType == .introductory && ($0.expiresDate ?? .distantPast) > Date() }
            #expect(overview["activeTrials"] as? Int == trials.count)
            #expect(trials.count == 1, "bob's monthly starts with its introductory offer")
            let bad = try await fixture.client.send("GET", "/v1/dashboard/overview?days=8", key: fixture.keys.dashboardKey)
            #expect(bad.status == 400, "\(bad)")
            #expect(bad.errorCode == "invalid_request")

            // A chosen range: the preset's own days give its numbers; one day 40 days back holds the first purchases.
            let preset = try await Self.get(fixture, "/v1/dashboard/overview?days=90")
            let presetRange = try #require(preset["range"] as? [String: Any])
            let first = try #require(presetRange["from"] as? String), last = try #require(presetRange["to"] as? String)
            let chosen = try await Self.get(fixture, "/v1/dashboard/overview?from=\(first)&to=\(last)")
            func json(_ value: Any?) throws -> Data {
                try JSONSerialization.data(withJSONObject: try #require(value), options: [.sortedKeys])
            }
            #expect(try json(chosen["daily"]) == json(preset["daily"]))
            #expect(try json(chosen["range"]) == json(preset["range"]))
            let dayFormat = DateFormatter()
            dayFormat.locale = Locale(identifier: "en_US_POSIX")
            dayFormat.timeZone = TimeZone(identifier: "UTC")
            dayFormat.dateFormat = "yyyy-MM-dd"
            let early = try #require(all.map(\.purchaseDate).min())
            let day = dayFormat.string(from: early)
            let one = try await Self.get(fixture, "/v1/dashboard/overview?from=\(day)&to=\(day)")
            let oneDaily = try #require(one["daily"] as? [[String: Any]])
            #expect(oneDaily.map { $0["day"] as? String } == [day])
            let oneRevenue = (oneDaily.first?["revenue"] as? [[String: Any]] ?? []).reduce(Decimal(0)) {
                $0 + Decimal(string: "\($1["amount"] ?? 0)")!
            }
            let expectedOne = all.filter { dayFormat.string(from: $0.purchaseDate) == day }.compactMap(\.price).reduce(Int64(0), +)
            #expect(expectedOne > 0 && oneRevenue == Decimal(expectedOne) / 1000, "\(oneRevenue) on \(day)")
            for query in ["from=\(last)&to=\(first)", "from=\(first)", "from=2020-01-01&to=2021-01-02", "from=2026-02-30&to=2026-03-01",
                          "days=7&from=\(first)&to=\(last)"] {
                let reply = try await fixture.client.send("GET", "/v1/dashboard/overview?\(query)", key: fixture.keys.dashboardKey)
                #expect(reply.status == 400, "\(query): \(reply)")
                #expect(reply.errorCode == "invalid_request", "\(query)")
            }
        }
    
        @Test(arguments: ServerFixture.testedStores) func searchFindsACustomerByEachIdAndTheListsShowRefunds(_ store: String) async throws {
            let fixture = try ServerFixture.on(store)
            let bought = try await Self.seed(fixture)
            let bob = try #require(bought["bob"]?.first)
            func found(_ q: String) async throws -> [String] {
                let encoded = q.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? q
                let reply = try await Self.get(fixture, "/v1/dashboard/customers?q=\(encoded)")
                return (reply["customers"] as? [[String: Any]] ?? []).compactMap { $0["appUserId"] as? String }
            }
            #expect(try await found(bob.transactionId) == ["bob"])
            #expect(try await found(bob.originalTransactionId) == ["bob"])
            #expect(try await found("<img") == ["<img src=x onerror=alert(1)>"])
            #expect(try await found("b") == ["bob"])
            #expect(try await found(try #require(bought["eve"]?.first).transactionId) == ["eve"], "the transferred chain")
            #expect(try await found("nobody").isEmpty)
            let refunded = try await Self.get(fixture, "/v1/dashboard/transactions?refunded=true")
            let rows = try #require(refunded["transactions"] as? [[String: Any]])
            #expect(rows.map { $0["appUserId"] as? String } == ["cy"])
            #expect(rows.first?["refunded"] as? Bool == true)
            let monthly = try await Self.get(fixture, "/v1/dashboard/transactions?productId=market.pro.monthly")
            #expect((monthly["transactions"] as? [[String: Any]])?.map { $0["transactionId"] as? String } == [bob.transactionId])
            let raw = try await fixture.client.send("GET", "/v1/dashboard/catalog", key: fixture.keys.dashboardKey)
            #expect(raw.header("Cache-Control") == "no-store" && raw.header("X-Content-Type-Options") == "nosniff")
            let consumables = try await Self.get(fixture, "/v1/dashboard/transactions?type=Consumable")
            #expect((consumables["transactions"] as? [[String: Any]])?.map { $0["appUserId"] as? String } == ["cy"])
            let catalog = try await Self.get(fixture, "/v1/dashboard/catalog")
            let premium = (catalog["products"] as? [[String: Any]])?.first { $0["productId"] as? String == "market.premium" }
            #expect(premium?["entitlements"] as? [String] == ["no-ads", "premium"])
            let notifications = try await Self.get(fixture, "/v1/dashboard/notifications")
            let listed = try #require(notifications["notifications"] as? [[String: Any]])
            #expect(listed.map { $0["notificationType"] as? String } == ["DID_FAIL_TO_RENEW"])
            #expect(listed.first?["appUserId"] as? String == "ret")
            // The seed posts the billing-retry notification days after the sandbox signed it: a late delivery.
            #expect((listed.first?["anomaly"] as? String)?.hasSuffix("after Apple signed it (Apple's retries)") == true,
                    "\(listed.first ?? [:])")
            #expect(notifications.keys.contains("nextCursor") && notifications["nextCursor"] is NSNull, "one page holds it all")
        }

        @Test(arguments: ServerFixture.testedStores) func theListsPageNewestFirstByCursor(_ store: String) async throws {
            let fixture = try ServerFixture.on(store)
            let bought = try await Self.seed(fixture)
            func ids(_ reply: [String: Any]) -> [String] {
                (reply["transactions"] as? [[String: Any]] ?? []).compactMap { $0["transactionId"] as? String }
            }
            let whole = try await Self.get(fixture, "/v1/dashboard/transactions?limit=500")
            #expect(whole["nextCursor"] is NSNull)
            let expected = bought.values.flatMap { $0 }.sorted {
                $0.purchaseDate != $1.purchaseDate ? $0.purchaseDate > $1.purchaseDate
                    : $1.transactionId.utf8.lexicographicallyPrecedes($0.transactionId.utf8)
            }.map(\.transactionId)
            #expect(ids(whole) == expected, "every transaction, newest purchase first")
            var pages: [[String]] = [], cursor: String?
            repeat {
                let query = "limit=3" + (cursor.map { "&cursor=\($0)" } ?? "")
                let page = try await Self.get(fixture, "/v1/dashboard/transactions?\(query)")
                pages.append(ids(page))
                cursor = page["nextCursor"] as? String
            } while cursor != nil && pages.count < 10
            #expect(pages.dropLast().allSatisfy { $0.count == 3 } && pages.last.map { (1...3).contains($0.count) } == true,
                    "\(pages)")
            #expect(pages.flatMap { $0 } == ids(whole), "the pages are the whole list, in order, nothing twice")
            let notifications = try await Self.get(fixture, "/v1/dashboard/notifications?limit=1")
            #expect(notifications["nextCursor"] is NSNull, "one notification: no next page")
            let first = try await Self.get(fixture, "/v1/dashboard/transactions?limit=1")
            let transactionCursor = try #require(first["nextCursor"] as? String)
            for (path, query) in [("transactions", "cursor=not-a-cursor"), ("transactions", "limit=0"), ("transactions", "limit=501"),
                                  ("notifications", "cursor=\(transactionCursor)"), ("notifications", "limit=x"),
                                  ("transactions", "cursor=" + String(repeating: "A", count: 5_000))] {
                let reply = try await fixture.client.send("GET", "/v1/dashboard/\(path)?\(query)", key: fixture.keys.dashboardKey)
                #expect(reply.status == 400 && reply.errorCode == "invalid_request", "\(path)?\(query.prefix(60)): \(reply)")
            }
        }

        @Test func theDashboardKeyOnlyReadsAndThePublicKeyCannotUseTheDashboard() async throws {
            let fixture = try ServerFixture()
            var market = try fixture.market()
            let (_, jws) = try market.buySigned("market.premium", account: "ann")
            let client = fixture.client
            let post = try await client.send("POST", APIClient.customerPath("ann") + "/transactions",
                                             key: fixture.keys.dashboardKey,
                                             body: try APIClient.json(["signedTransaction": jws]))
            #expect(post.status == 403 && post.errorCode == "forbidden", "\(post)")
            let spend = try await client.send("POST", APIClient.customerPath("ann") + "/currencies/coins/spend",
                                              key: fixture.keys.dashboardKey, body: try APIClient.json(["amount": 1, "id": "x"]))
            #expect(spend.status == 403, "\(spend)")
            let reconcile = try await client.send("POST", APIClient.customerPath("ann") + "/reconcile", key: fixture.keys.dashboardKey)
            #expect(reconcile.status == 403, "\(reconcile)")
            #expect(try await client.send("GET", APIClient.customerPath("ann"), key: fixture.keys.dashboardKey).status == 200)
            #expect(try await client.send("GET", APIClient.customerPath("ann") + "/history", key: fixture.keys.dashboardKey).status == 200)
            let publicKey = try await client.send("GET", "/v1/dashboard/overview", key: fixture.keys.publicKey)
            #expect(publicKey.status == 403, "\(publicKey)")
            let none = try await client.send("GET", "/v1/dashboard/overview")
            #expect(none.status == 401, "\(none)")
            #expect(try await client.send("GET", "/v1/dashboard/overview", key: fixture.keys.secretKey).status == 200)
            #expect(try await client.send("GET", "/v1/dashboard/nothing", key: fixture.keys.dashboardKey).status == 404)
        }

        @Test func thePageIsServedWithAStrictPolicyAndNoInlineScript() async throws {
            let fixture = try ServerFixture()
            let page = try await fixture.client.send("GET", "/dashboard/")
            #expect(page.status == 200, "\(page)")
            #expect(page.header("Content-Type")?.hasPrefix("text/html") == true)
            let policy = try #require(page.header("Content-Security-Policy"))
            #expect(policy.contains("script-src 'self'") && !policy.contains("unsafe-inline"))
            #expect(page.header("X-Content-Type-Options") == "nosniff")
            #expect(page.header("Referrer-Policy") == "no-referrer")
            #expect(!page.text.contains("<script>") && page.text.contains(#"<script type="module" src="app.js">"#))
            for file in ["app.js", "api.js", "dom.js", "views.js", "style.css"] {
                let reply = try await fixture.client.send("GET", "/dashboard/" + file)
                #expect(reply.status == 200, "\(file): \(reply)")
                #expect(reply.header("X-Content-Type-Options") == "nosniff")
            }
            #expect(try await fixture.client.send("GET", "/dashboard/../tally-server.json").status == 404)
            #expect(try await fixture.client.send("GET", "/dashboard/%2e%2e%2ftally-server.json").status == 404)
            #expect(try await fixture.client.send("POST", "/dashboard/").status == 405)
            let connection = try RawConnection(port: fixture.server.port)  // URLSession would follow the redirect
            defer { connection.close() }
            let bare = try connection.request("GET", "/dashboard")
            #expect(bare.status == 308 && bare.header("Location") == "/dashboard/", "\(bare)")
            let unknown = try await fixture.client.send("GET", "/dashboard/tally.sqlite")
            #expect(unknown.status == 404 && unknown.header("X-Content-Type-Options") == "nosniff", "\(unknown)")
            #expect(unknown.errorCode == "not_found")
        }

        @Test func theFilesAndChartJSComeFromTheConfiguredPaths() async throws {
            let fixture = try ServerFixture()
            #expect(try await fixture.client.send("GET", "/dashboard/vendor/chart.js").status
                    == (FileManager.default.fileExists(atPath: "/usr/share/javascript/chart.js/chart.min.js") ? 200 : 404))
            let files = fixture.directory.appendingPathComponent("web")
            try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
            try Data("<!doctype html><title>custom</title>".utf8).write(to: files.appendingPathComponent("index.html"))
            try fixture.reconfigure { $0["dashboard"] = ["chartJS": "no/such/chart.js", "files": "web"] }
            let page = try await fixture.client.send("GET", "/dashboard/")
            #expect(page.status == 200 && page.text.contains("custom"), "\(page)")
            #expect(try await fixture.client.send("GET", "/dashboard/vendor/chart.js").status == 404)
            #expect(try await fixture.client.send("GET", "/dashboard/app.js").status == 404, "only the configured folder")
            #expect(fixture.server.stderr.text.contains("Chart.js not found"), "\(fixture.server.stderr.text)")
            try fixture.server.killNow()
            var document = try fixture.configurationDocument()
            document["dashboard"] = ["chart": "x"]
            let broken = fixture.directory.appendingPathComponent("broken.json")
            try JSONSerialization.data(withJSONObject: document).write(to: broken)
            let exit = try ServerProcess.runToExit(data: fixture.dataDirectory, config: broken)
            #expect(exit.status == 2 && exit.stderr.contains("dashboard.chart"), "\(exit.stderr)")
        }
    }
}
