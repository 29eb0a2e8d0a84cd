import Foundation
import TallyCore
import Testing
@testable import TallyServer

@Suite("POST /v1/customers/{id}/transactions")
struct TransactionEndpointTests {
    @Test("a signed purchase is stored once: inserted, then unchanged; the customer owns it", arguments: StoreKind.tested)
    func insertThenUnchanged(_ kind: StoreKind) throws {
        let fixture = try ServerFixture.make(kind)
        let premium = Purchases.premium("1001", at: ServerFixture.start.addingTimeInterval(-60))
        let first = try fixture.post(premium, for: "user-1")
        #expect(first.status == 200)
        #expect((first.json["transaction"] as? [String: Any])?["outcome"] as? String == "inserted")
        #expect((first.json["transaction"] as? [String: Any])?["transactionId"] as? String == "1001")
        #expect(first.customer["appUserId"] as? String == "user-1")
        #expect(first.customer["nonConsumables"] as? [String] == ["market.premium"])
        #expect(first.features == ["no-ads", "premium"])
        let again = try fixture.post(premium, for: "user-1")
        #expect((again.json["transaction"] as? [String: Any])?["outcome"] as? String == "unchanged")
        #expect(fixture.api.metrics.verifications(kind: "transaction", result: "valid") == 2)
    }

    @Test("a refund's copy is an update and removes the entitlement", arguments: StoreKind.tested)
    func refundRemovesEntitlement(_ kind: StoreKind) throws {
        let fixture = try ServerFixture.make(kind)
        let bought = ServerFixture.start.addingTimeInterval(-3600)
        _ = try fixture.post(Purchases.premium("1002", at: bought), for: "user-2")
        let refund = try fixture.post(
            Purchases.premium("1002", at: bought, revoked: ServerFixture.start.addingTimeInterval(-60)), for: "user-2")
        #expect(refund.status == 200)
        #expect((refund.json["transaction"] as? [String: Any])?["outcome"] as? String == "updated")
        #expect(refund.features.isEmpty)
        #expect((refund.customer["nonConsumables"] as? [String])?.isEmpty == true)
        let read = fixture.send("GET", "/v1/customers/user-2", key: ServerFixture.publicKey)
        #expect(read.features.isEmpty)
    }

    @Test("a JWS from a root the server does not trust is 422 with Apple's reason, and nothing is stored", arguments: StoreKind.tested)
    func untrustedRoot(_ kind: StoreKind) throws {
        let fixture = try ServerFixture.make(kind)
        let other = try Signing.untrustedAuthority().signer()
        let jws = try other.signTransaction(Purchases.premium("1003", at: ServerFixture.start))
        let reply = fixture.send("POST", "/v1/customers/user-3/transactions", key: ServerFixture.publicKey,
                                 body: #"{"signedTransaction":"\#(jws)"}"#)
        #expect(reply.status == 422)
        #expect(reply.errorCode == "verification_failed")
        #expect(reply.errorReason == "VERIFICATION_FAILURE")
        #expect(try fixture.store.customer("user-3").transactions.isEmpty)
        #expect(fixture.api.metrics.verifications(kind: "transaction", result: "VERIFICATION_FAILURE") == 1)
        #expect(fixture.send("GET", "/metrics", key: nil).text
            .contains(#"tally_verifications_total{kind="transaction",result="VERIFICATION_FAILURE"} 1"#))
    }

    @Test("another app's bundle id is INVALID_APP_IDENTIFIER; an environment not accepted is INVALID_ENVIRONMENT", arguments: StoreKind.tested)
    func wrongAppAndEnvironment(_ kind: StoreKind) throws {
        let fixture = try ServerFixture.make(kind)
        let otherApp = Purchases.make("1004", product: "market.premium", type: .nonConsumable,
                                      at: ServerFixture.start, bundleId: "com.example.other")
        let app = try fixture.post(otherApp, for: "user-4")
        #expect(app.status == 422)
        #expect(app.errorReason == "INVALID_APP_IDENTIFIER")
        let production = Purchases.make("1005", product: "market.premium", type: .nonConsumable,
                                        at: ServerFixture.start, environment: .production)
        let environment = try fixture.post(production, for: "user-4")
        #expect(environment.status == 422)
        #expect(environment.errorReason == "INVALID_ENVIRONMENT")
    }

    @Test("each accepted environment has its own verifier: Production and Sandbox payloads both verify")
    func twoEnvironments() throws {
        let fixture = try ServerFixture(environments: [.production, .sandbox])
        let production = Purchases.make("1006", product: "market.premium", type: .nonConsumable,
                                        at: ServerFixture.start, environment: .production)
        #expect(try fixture.post(production, for: "user-5").status == 200)
        #expect(try fixture.post(Purchases.premium("1007", at: ServerFixture.start), for: "user-5").status == 200)
    }

    @Test("a body that is not a JWS is 422; a missing field is 400 invalid_request", arguments: StoreKind.tested)
    func badBodies(_ kind: StoreKind) throws {
        let fixture = try ServerFixture.make(kind)
        let path = "/v1/customers/u/transactions"
        let garbage = fixture.send("POST", path, key: ServerFixture.publicKey, body: #"{"signedTransaction":"a.b.c"}"#)
        #expect(garbage.status == 422)
        #expect(garbage.errorReason == "VERIFICATION_FAILURE")
        #expect(fixture.send("POST", path, key: ServerFixture.publicKey, body: #"{"jws":"a"}"#).errorCode == "invalid_request")
        #expect(fixture.send("POST", path, key: ServerFixture.publicKey, body: #"{"signedTransaction":5}"#)
            .errorCode == "invalid_request")
        #expect(fixture.send("POST", path, key: ServerFixture.publicKey, body: "[1]").errorCode == "invalid_request")
    }

    @Test("a store failure is 503 unavailable and the transaction can be posted again", arguments: StoreKind.tested)
    func storeFailure(_ kind: StoreKind) throws {
        let fixture = try ServerFixture.make(kind)
        fixture.store.setFailing(true)
        let premium = Purchases.premium("1008", at: ServerFixture.start)
        let failed = try fixture.post(premium, for: "user-6")
        #expect(failed.status == 503)
        #expect(failed.errorCode == "unavailable")
        // The store's own words go to the operator's log, not to the client.
        let log = fixture.logged.lines
        #expect(log.count == 1)
        #expect(log.first?.contains("the test switched the store off") == true)
        #expect(!String(decoding: failed.response.body, as: UTF8.self).contains("switched"))
        fixture.store.setFailing(false)
        let retried = try fixture.post(premium, for: "user-6")
        #expect((retried.json["transaction"] as? [String: Any])?["outcome"] as? String == "inserted")
    }
}
