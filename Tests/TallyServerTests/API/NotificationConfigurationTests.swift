import Foundation
import TallyCore
import TallyHTTP
import Testing
@testable import TallyServer

@Suite("tally-server.json: notifications")
struct NotificationConfigurationTests {
    static let base = """
        "storekit":"Market.storekit","appConfiguration":"tally.json","verification":{"appAppleId":42},
        "keys":[{"name":"app","role":"public","sha256":"\(ConfigurationTests.hash)"}]
        """

    @Test("the path defaults to /v1/notifications/apple; notifications.path and maxBodyBytes set it")
    func pathKey() throws {
        let (defaults, _) = try ConfigurationTests().load("{\(Self.base)}")
        #expect(try defaults.get().notifications == NotificationSettings(path: "/v1/notifications/apple",
                                                                          maxBodyBytes: 262_144))
        let (custom, _) = try ConfigurationTests().load(
            #"{\#(Self.base),"notifications":{"path":"/hooks/apple-7f3a","maxBodyBytes":100000}}"#)
        #expect(try custom.get().notifications == NotificationSettings(path: "/hooks/apple-7f3a", maxBodyBytes: 100_000))
    }

    @Test("a path that is not a plain path, or is another route's, or an unknown key, is a problem with its JSON path",
          arguments: [#"{"path":"hooks"}"#, #"{"path":"/metrics"}"#, #"{"path":"/v1/customers/x"}"#,
                      #"{"path":"/a?b=1"}"#, #"{"url":"/a"}"#, #"{"maxBodyBytes":2000000}"#])
    func badPaths(object: String) throws {
        let (result, _) = try ConfigurationTests().load(#"{\#(Self.base),"notifications":\#(object)}"#)
        guard case .failure(let error) = result else {
            Issue.record("\(object) was accepted")
            return
        }
        #expect(error.problems.contains { $0.path.hasPrefix("notifications") }, "\(error)")
    }

    @Test("a configured path is the route (no key needed), the default path is then 404; its body limit applies")
    func configuredPathRoutes() throws {
        let fixture = try ServerFixture()
        var configuration = fixture.api.configuration
        configuration.notifications = NotificationSettings(path: "/hooks/apple-7f3a", maxBodyBytes: 50_000)
        let api = try EntitlementAPI(configuration: configuration, store: fixture.store,
                                     clock: fixture.clock.serverClock)
        let jws = try fixture.signedNotification(.test, signed: ServerFixture.start)
        func post(_ path: String) -> Reply {
            Reply(api.handle(HTTPRequest(method: "POST", path: path, query: [:], headers: [:],
                                         body: Array(#"{"signedPayload":"\#(jws)"}"#.utf8))))
        }
        #expect(post("/v1/notifications/apple").status == 404)
        let reply = post("/hooks/apple-7f3a")
        #expect(reply.status == 200)
        #expect(reply.result == "recorded")
        #expect(Router.maxBodyBytes(method: "POST", path: "/hooks/apple-7f3a", limits: configuration.limits,
                                    notifications: configuration.notifications) == 50_000)
        #expect(Router.maxBodyBytes(method: "POST", path: "/v1/notifications/apple", limits: configuration.limits,
                                    notifications: configuration.notifications) == 0)
        #expect(api.metrics.prometheusText().contains(#"route="/v1/notifications/apple",method="POST",status="200""#))
    }
}
