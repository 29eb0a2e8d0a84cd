import Foundation
import TallyCore
import TallySandbox
import Testing

extension ServerProcessTests.Notifications {
    /// A TEST notification for the Market app.
    static func testNotification() -> ServerNotification {
        ServerNotification(notificationType: .test, notificationUUID: UUID().uuidString, signedDate: Date(),
                           data: NotificationData(bundleId: "com.example.market", environment: .sandbox))
    }

    /// Issue 27 item 8: the keyless notification route spent 0.71 ms of CPU on every forged body, at 2.5 k/s from
    /// one client. Refused bodies now cost their address a token (`rateLimit.unverifiedNotification*`), and an
    /// address with none left gets 429 before its body is verified; Apple's genuine notifications from another
    /// address are accepted meanwhile.
    @Test func aFloodOfForgedBodiesFromOneAddressGets429WhileAnotherIsAccepted() async throws {
        let fixture = try ServerFixture()
        try fixture.reconfigure { document in
            var rate = document["rateLimit"] as? [String: Any] ?? [:]
            rate["unverifiedNotificationsPerSecond"] = 0.01
            rate["unverifiedNotificationBurst"] = 3
            document["rateLimit"] = rate
        }
        var market = try fixture.market(start: Date())
        let forger = try SandboxCertificateAuthority.generate(now: Date()).signer()
        func body(_ signedPayload: String) throws -> [UInt8] { [UInt8](try APIClient.json(["signedPayload": signedPayload])) }
        let port = fixture.server.port, path = "/v1/notifications/apple"
        var flood: [Int] = []
        for _ in 0..<6 {
            flood.append(try requestStatus(port: port, from: "127.0.0.1", "POST", path,
                                           body: body(try forger.sign(Self.testNotification()))))
        }
        #expect(flood == [422, 422, 422, 429, 429, 429], "forged bodies from 127.0.0.1: \(flood)")
        let genuine = try requestStatus(port: port, from: "127.0.0.2", "POST", path,
                                        body: body(try market.sign(Self.testNotification())))
        #expect(genuine == 200, "Apple's notification from 127.0.0.2 got \(genuine)")
        // The flooding address is refused before verification, whatever it sends now.
        let refused = try requestStatus(port: port, from: "127.0.0.1", "POST", path,
                                        body: body(try market.sign(Self.testNotification())))
        #expect(refused == 429)
        // Genuine notifications spend nothing: 127.0.0.2 can send more than the burst.
        for _ in 0..<4 {
            #expect(try requestStatus(port: port, from: "127.0.0.2", "POST", path,
                                      body: body(try market.sign(Self.testNotification()))) == 200)
        }
    }
}
