import Foundation
import Testing
import TallyCore
import TallySandbox

extension ServerProcessTests {
    /// `GET /v1/dashboard/offers` through a real `tally serve` on SQLite and on PostgreSQL: the posted transactions
    /// bought with an offer, newest first, paged, with each offer's count.
    @Suite struct DashboardOffers {
        /// The offer id that is markup: the page must show it as text.
        static let markup = "<img src=x onerror=alert(1)>"

        /// Posts, a minute apart (oldest first), signed transactions with an introductory offer (no id), a
        /// promotional offer twice, an offer code, a win-back offer whose id is markup, and one bought without an
        /// offer; returns those bought with an offer, newest first.
        static func seed(_ fixture: ServerFixture) async throws -> [StoreTransaction] {
            var market = try fixture.market(start: Date().addingTimeInterval(-3_600))
            let purchases: [(String, String, OfferType?, String?, OfferDiscountType?)] = [
                ("ann", "market.pro.monthly", .introductory, nil, .freeTrial),
                ("bob", "market.pro.monthly", .promotional, "winback_50", .payUpFront),
                ("cy", "market.plus.monthly", .offerCode, "SPRING", .payAsYouGo),
                ("dan", "market.premium", nil, nil, nil),
                ("eve", "market.pro.yearly", .winBack, markup, .freeTrial),
                ("fay", "market.pro.monthly", .promotional, "winback_50", .payUpFront),
            ]
            var offered: [StoreTransaction] = []
            for (customer, product, type, id, discount) in purchases {
                var transaction = try market.buy(product, account: customer)
                transaction.offerType = type
                transaction.offerIdentifier = id
                transaction.offerDiscountType = discount
                let reply = try await fixture.client.postTransaction(try market.signed(transaction), for: customer)
                #expect(reply.status == 200, "\(customer): \(reply)")
                if type != nil { offered.append(transaction) }
                market.advance(by: SandboxDuration(60, .second))
            }
            return offered.reversed()
        }

        static func get(_ fixture: ServerFixture, _ query: String, key: String? = nil) async throws -> HTTPReply {
            try await fixture.client.send("GET", "/v1/dashboard/offers" + query, key: key ?? fixture.keys.dashboardKey)
        }

        @Test(arguments: ServerFixture.testedStores) func theOffersRouteListsRedemptionsAndTotals(_ store: String) async throws {
            let fixture = try ServerFixture.on(store)
            let offered = try await Self.seed(fixture)
            let reply = try await Self.get(fixture, "")
            #expect(reply.status == 200, "\(reply)")
            #expect(reply.header("Cache-Control") == "no-store")
            let body = try reply.json()
            let items = body["redemptions"] as? [[String: Any]] ?? []
            #expect(items.map { $0["transactionId"] as? String } == offered.map(\.transactionId), "newest first, no dan")
            for (item, transaction) in zip(items, offered) {
                #expect(item["appUserId"] as? String != nil)
                #expect(item["originalTransactionId"] as? String == transaction.originalTransactionId)
                #expect(item["productId"] as? String == transaction.productId)
                #expect(item["offerType"] as? Int == transaction.offerType?.rawValue)
                #expect(item["offerIdentifier"] as? String == transaction.offerIdentifier)
                #expect(item["offerDiscountType"] as? String == transaction.offerDiscountType?.rawValue)
                #expect((item["price"] as? NSNumber)?.doubleValue == transaction.price.map { Double($0) / 1000 })
                #expect(item["currency"] as? String == transaction.currency)
                #expect(item["environment"] as? String == "Sandbox")
                #expect(item["purchaseDate"] as? String != nil)
            }
            #expect(items.first?["appUserId"] as? String == "fay" && items.last?["appUserId"] as? String == "ann")
            #expect(items.last.map { $0["offerIdentifier"] is NSNull } == true, "an introductory offer without an id: null")
            let totals = (body["totals"] as? [[String: Any]] ?? []).map {
                "\($0["offerType"] as? Int ?? 0) \($0["offerIdentifier"] as? String ?? "-") \($0["count"] as? Int ?? 0)"
            }
            #expect(totals == ["1 - 1", "2 winback_50 2", "3 SPRING 1", "4 \(Self.markup) 1"], "\(totals)")
            #expect(body["nextCursor"] is NSNull)

            // Pages of two follow each other with no row twice; every page carries all the totals.
            var paged: [String] = [], cursor: String?
            repeat {
                let query = "?limit=2" + (cursor.map { "&cursor=" + PercentEncoding.pathSegment($0) } ?? "")
                let page = try await Self.get(fixture, query).json()
                paged += (page["redemptions"] as? [[String: Any]] ?? []).compactMap { $0["transactionId"] as? String }
                #expect((page["totals"] as? [Any])?.count == 4)
                cursor = page["nextCursor"] as? String
            } while cursor != nil && paged.count < 10
            #expect(paged == offered.map(\.transactionId), "\(paged)")

            let transactions = try await fixture.client.send("GET", "/v1/dashboard/transactions?limit=1",
                                                             key: fixture.keys.dashboardKey).json()
            let foreign = try #require(transactions["nextCursor"] as? String)
            let refused = try await Self.get(fixture, "?cursor=" + PercentEncoding.pathSegment(foreign))
            #expect(refused.status == 400 && refused.errorCode == "invalid_request", "another list's cursor: \(refused)")
            for bad in ["?limit=0", "?limit=501", "?cursor=%FF"] {
                let reply = try await Self.get(fixture, bad)
                #expect(reply.status == 400 && reply.errorCode == "invalid_request", "\(bad): \(reply)")
            }
            let publicKey = try await Self.get(fixture, "", key: fixture.keys.publicKey)
            #expect(publicKey.status == 403 && publicKey.errorCode == "forbidden", "\(publicKey)")
            #expect(try await Self.get(fixture, "", key: fixture.keys.secretKey).status == 200)
        }
    }
}
