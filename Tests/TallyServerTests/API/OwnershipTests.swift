import Foundation
import TallyCore
import Testing
@testable import TallyServer

@Suite("Ownership: transfer and keep")
struct OwnershipTests {
    @Test("under transfer, another customer's post moves the chain; both histories record it; both caches update", arguments: StoreKind.tested)
    func transfer(_ kind: StoreKind) throws {
        let fixture = try ServerFixture.make(kind, ownership: .transfer)
        let premium = Purchases.premium("6001", at: ServerFixture.start.addingTimeInterval(-600))
        _ = try fixture.post(premium, for: "old")
        #expect(fixture.send("GET", "/v1/customers/old").features == ["no-ads", "premium"])
        let moved = try fixture.post(premium, for: "new")
        #expect(moved.status == 200)
        #expect((moved.json["transaction"] as? [String: Any])?["outcome"] as? String == "transferred")
        #expect(moved.features == ["no-ads", "premium"])
        #expect(fixture.send("GET", "/v1/customers/old").features.isEmpty)
        for user in ["old", "new"] {
            let history = fixture.send("GET", "/v1/customers/\(user)/history")
            let transfer = try #require((history.json["items"] as? [[String: Any]])?.first { $0["kind"] as? String == "transfer" })
            #expect(transfer["fromAppUserId"] as? String == "old")
            #expect(transfer["toAppUserId"] as? String == "new")
            #expect(transfer["originalTransactionId"] as? String == "6001")
        }
    }

    @Test("under keep, the chain stays with its owner: 409 owned_by_another_customer, nothing changes", arguments: StoreKind.tested)
    func keep(_ kind: StoreKind) throws {
        let fixture = try ServerFixture.make(kind, ownership: .keep)
        let premium = Purchases.premium("6002", at: ServerFixture.start.addingTimeInterval(-600))
        _ = try fixture.post(premium, for: "owner")
        let refused = try fixture.post(premium, for: "other")
        #expect(refused.status == 409)
        #expect(refused.errorCode == "owned_by_another_customer")
        #expect(fixture.send("GET", "/v1/customers/other").features.isEmpty)
        #expect(fixture.send("GET", "/v1/customers/owner").features == ["no-ads", "premium"])
    }
}
