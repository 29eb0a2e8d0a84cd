import Foundation
import TallyCore
import Testing
@testable import TallyServer

@Suite("tally-server.json: webhooks; the signature; the retry schedule")
struct WebhookConfigurationTests {
    static let base = NotificationConfigurationTests.base

    @Test("several endpoints, each with its events, retry and timeout; none by default")
    func endpoints() throws {
        let (none, _) = try ConfigurationTests().load("{\(Self.base)}")
        #expect(try none.get().webhooks.endpoints.isEmpty)
        let (loaded, _) = try ConfigurationTests().load(#"""
            {\#(Self.base),"webhooks":[
              {"url":"https://a.example/hooks","secret":"s3cret","events":["*"]},
              {"url":"http://127.0.0.1:9/b","secret":"whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw","events":["REFUND","TEST"],
               "retry":{"attempts":3,"initialDelaySeconds":0.5,"maxDelaySeconds":2},"timeoutSeconds":1.5}]}
            """#)
        let endpoints = try loaded.get().webhooks.endpoints
        #expect(endpoints.count == 2)
        #expect(endpoints[0].types == nil && endpoints[0].secret == Array("s3cret".utf8))
        #expect(endpoints[0].retry == WebhookRetryPolicy(attempts: 12, initialDelaySeconds: 5, maxDelaySeconds: 86_400))
        #expect(endpoints[1].types == [.refund, .test])
        #expect(endpoints[1].secret == Array(Data(base64Encoded: "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw") ?? Data()))
        #expect(endpoints[1].retry == WebhookRetryPolicy(attempts: 3, initialDelaySeconds: 0.5, maxDelaySeconds: 2))
        #expect(endpoints[1].timeoutSeconds == 1.5)
        let routing = try loaded.get().webhooks.routing
        #expect(routing.endpoints(for: .renewal) == ["https://a.example/hooks"])
        #expect(routing.endpoints(for: .refund) == ["https://a.example/hooks", "http://127.0.0.1:9/b"])
    }

    @Test("a bad endpoint is a problem with its JSON path",
          arguments: [#"{"url":"ftp://a.example","secret":"s","events":["*"]}"#,
                      #"{"url":"/relative","secret":"s","events":["*"]}"#,
                      #"{"url":"https://a.example","secret":"","events":["*"]}"#,
                      #"{"url":"https://a.example","events":["*"]}"#,
                      #"{"url":"https://a.example","secret":"whsec_***","events":["*"]}"#,
                      #"{"url":"https://a.example","secret":"s","events":["PURCHASE"]}"#,
                      #"{"url":"https://a.example","secret":"s","events":[]}"#,
                      #"{"url":"https://a.example","secret":"s"}"#,
                      #"{"url":"https://a.example","secret":"s","events":["*"],"retry":{"attempts":0}}"#,
                      #"{"url":"https://a.example","secret":"s","events":["*"],"timeoutSeconds":0}"#,
                      #"{"url":"https://a.example","secret":"s","events":["*"],"headers":{}}"#])
    func badEndpoints(object: String) throws {
        let (result, _) = try ConfigurationTests().load(#"{\#(Self.base),"webhooks":[\#(object)]}"#)
        guard case .failure(let error) = result else {
            Issue.record("\(object) was accepted")
            return
        }
        #expect(error.problems.contains { $0.path.hasPrefix("webhooks[0]") }, "\(error)")
    }

    @Test("the same url twice is a problem")
    func duplicateURL() throws {
        let endpoint = #"{"url":"https://a.example/h","secret":"s","events":["*"]}"#
        let (result, _) = try ConfigurationTests().load(#"{\#(Self.base),"webhooks":[\#(endpoint),\#(endpoint)]}"#)
        guard case .failure(let error) = result else {
            Issue.record("accepted")
            return
        }
        #expect(error.problems.contains { $0.path == "webhooks[1].url" }, "\(error)")
    }

    /// The Standard Webhooks specification's own example (github.com/standard-webhooks/standard-webhooks, spec).
    @Test("the signature is Standard Webhooks': the specification's example vector")
    func standardWebhooksVector() throws {
        let secret = try #require(WebhookEndpoint.secretBytes("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"))
        let header = WebhookSignature.header(secret: secret, id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1_614_265_330,
                                             body: Array(#"{"test": 2432232314}"#.utf8))
        #expect(header == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
    }

    @Test("the default schedule backs off from about 5 s to a day over 12 attempts, with jitter of ±20 %")
    func retrySchedule() {
        let policy = WebhookRetryPolicy()
        let low = (1...11).map { policy.delay(afterAttempt: $0, unit: 0) }
        let high = (1...11).map { policy.delay(afterAttempt: $0, unit: 1) }
        #expect(abs(low[0] - 4) < 1e-9 && abs(high[0] - 6) < 1e-9)
        #expect(zip(low, low.dropFirst()).allSatisfy { $0 < $1 }, "\(low)")
        #expect(high.last == 86_400, "never above the maximum")
        #expect(abs(low[10] - 86_400 * 0.8) < 1e-6, "the last retry waits about a day")
    }
}
