import Foundation
import TallyCore
import TallySandbox
import Testing

extension ServerProcessTests {
    /// App Store Server Notifications posted to a real `tally serve`: applied before the 200, durable across
    /// a SIGKILL, deduplicated across restarts.
    @Suite struct Notifications {
        /// `{"signedPayload": …}` posted to the notification route without a key, as Apple does.
        static func post(_ signedPayload: String, to client: APIClient) async throws -> HTTPReply {
            try await client.send("POST", "/v1/notifications/apple",
                                  body: try APIClient.json(["signedPayload": signedPayload]))
        }

        static func subscription(_ customer: [String: Any]) -> [String: Any] {
            (customer["subscriptions"] as? [[String: Any]])?.first ?? [:]
        }

        @Test func aRenewalTheAppNeverPostedReachesTheCustomerAndSurvivesSIGKILL() async throws {
            let fixture = try ServerFixture()
            var market = try fixture.market(start: Date().addingTimeInterval(-40 * 86_400))
            let (first, firstJWS) = try market.buySigned("market.pro.monthly", account: "nia")
            #expect(try await fixture.client.postTransaction(firstJWS, for: "nia").status == 200)
            #expect(Self.subscription(try await fixture.client.customer("nia"))["status"] as? String == "expired",
                    "bought 40 days ago, a month's subscription has lapsed without its renewal")

            market.advance(by: SandboxDuration(40, .day))  // the sandbox renews it; the app posts nothing
            let chain = market.sandbox.transactions(account: "nia").filter {
                $0.originalTransactionId == first.originalTransactionId
            }
            let renewed = try #require(chain.max { $0.purchaseDate < $1.purchaseDate })
            #expect(renewed.transactionId != first.transactionId)
            let renewal = try #require(market.sandbox.renewalInfos(account: "nia").first)
            let notification = ServerNotification(
                notificationType: .didRenew, notificationUUID: UUID().uuidString,
                signedDate: renewed.signedDate ?? renewed.purchaseDate,
                data: NotificationData(bundleId: "com.example.market", environment: .sandbox,
                                       signedTransactionInfo: try market.signed(renewed),
                                       signedRenewalInfo: try market.sign(renewal), status: 1))
            let signedPayload = try market.sign(notification)
            let reply = try await Self.post(signedPayload, to: fixture.client)
            #expect(reply.status == 200, "\(reply)")
            #expect(try reply.json()["result"] as? String == "applied")
            let expires = try #require(renewed.expiresDate)
            let subscribed = Self.subscription(try await fixture.client.customer("nia"))
            #expect(subscribed["status"] as? String == "subscribed")
            #expect(subscribed["willRenew"] as? Bool == true)
            #expect(JSONFields.features(try await fixture.client.customer("nia")).contains("pro"))

            try fixture.server.killNow()  // SIGKILL right after the 200: it was durable before it
            try fixture.restart()
            let after = try await fixture.client.customer("nia")
            #expect(Self.subscription(after)["status"] as? String == "subscribed")
            let expiresText = Self.subscription(after)["expiresDate"] as? String
            let format = ISO8601DateFormatter()
            format.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            #expect(expiresText.flatMap { format.date(from: $0) }?.millisecondsSince1970 == expires.millisecondsSince1970,
                    "\(expiresText ?? "no expiresDate") is the renewal's expiresDate \(expires)")
            let items = JSONFields.items(try await fixture.client.history("nia"), kind: "notification")
            #expect(items.count == 1)
            #expect(items.first?["type"] as? String == "DID_RENEW")

            let retry = try await Self.post(signedPayload, to: fixture.client)
            #expect(retry.status == 200, "\(retry)")
            #expect(try retry.json()["result"] as? String == "duplicate", "Apple's retry after the restart changes nothing")
            let metrics = try await fixture.client.send("GET", "/metrics")
            #expect(String(decoding: metrics.body, as: UTF8.self)
                .contains(#"tally_notifications_total{type="DID_RENEW",result="duplicate"} 1"#))
        }

        @Test func anUnverifiablePayloadIs422() async throws {
            let fixture = try ServerFixture()
            let other = try SandboxCertificateAuthority.generate(now: Date()).signer()
            let forged = try other.sign(ServerNotification(
                notificationType: .test, notificationUUID: UUID().uuidString, signedDate: Date(),
                data: NotificationData(bundleId: "com.example.market", environment: .sandbox)))
            let reply = try await Self.post(forged, to: fixture.client)
            #expect(reply.status == 422, "\(reply)")
            #expect((try reply.json()["error"] as? [String: Any])?["reason"] as? String == "VERIFICATION_FAILURE")
        }
    }
}
