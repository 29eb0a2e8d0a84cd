import Foundation
@testable import TallyServer
import TallyStorage
import Testing

/// The dashboard's JSON needs a store with the dashboard's queries (``DashboardStore``): any other store, such as
/// a wrapper over one, answers 501 `not_implemented`, never a made-up number.
@Suite struct DashboardStoreGateTests {
    @Test(arguments: StoreKind.tested)
    func aStoreWithoutTheDashboardsQueriesAnswers501(_ kind: StoreKind) throws {
        // The fixture's store is wrapped (SwitchableStore: a CustomerStore, not a DashboardStore) over either kind.
        let fixture = try ServerFixture.make(kind)
        for path in ["/v1/dashboard/overview", "/v1/dashboard/customers", "/v1/dashboard/transactions",
                     "/v1/dashboard/notifications"] {
            let reply = fixture.send("GET", path, query: ["q": "x"])
            #expect(reply.status == 501, "\(path): \(reply.status)")
            #expect(reply.errorCode == "not_implemented")
        }
        #expect(fixture.send("GET", "/v1/dashboard/catalog").status == 200, "the catalog needs no store")
        #expect(fixture.send("GET", "/v1/dashboard/overview", key: ServerFixture.publicKey).status == 403)
    }

    @Test(arguments: StoreKind.tested)
    func bothRealStoresHaveTheDashboardsQueries(_ kind: StoreKind) throws {
        let database = try StoreUnderTest(kind)
        let store = try database.open()
        #expect(store is any DashboardStore, "the \(kind) store answers the dashboard's routes")
    }
}
