import Foundation
import TallyCore
@testable import TallyServer
import TallyStorage
import Testing

private typealias F = StoreFixtures

@Suite("Customer store (SQLite and PostgreSQL): consumption requests and their answers")
struct StoreConsumptionTests {
    private func request(_ uuid: String, about transaction: StoredTransaction) -> StoredNotification {
        StoredNotification(notificationUUID: uuid, notificationType: NotificationType.consumptionRequest.rawValue,
                           signedDate: F.day(1), signedPayload: "signed-\(uuid)", transaction: transaction,
                           appliesFacts: true)
    }

    @Test(arguments: StoreKind.tested) func openRequestsCarryTheirOwnerUntilAnsweredOnce(_ kind: StoreKind) throws {
        let directory = try StoreUnderTest(kind)
        let store = try directory.open()
        _ = try store.record([F.coins("caf\u{E9}")], for: "u1", policy: .transfer, at: F.start)
        _ = try store.recordNotification(request("n1", about: F.coins("caf\u{E9}")), at: F.day(1))
        // Equal to the owned id under Unicode normalisation only: no customer holds it.
        _ = try store.recordNotification(request("n2", about: F.coins("cafe\u{301}")), at: F.day(2))
        _ = try store.recordNotification(StoredNotification(notificationUUID: "n3", notificationType: "REFUND",
                                                            signedDate: F.day(1), signedPayload: "x",
                                                            transaction: F.coins("caf\u{E9}"), appliesFacts: true),
                                         at: F.day(1))

        let open = try store.openConsumptionRequests(receivedSince: F.day(0))
        #expect(open.map(\.notificationUUID) == ["n1", "n2"], "only CONSUMPTION_REQUESTs, oldest first")
        #expect(open.first?.appUserId == "u1" && open.first?.transactionId.hasSameBytes(as: "caf\u{E9}") == true)
        #expect(open.last?.appUserId == nil && open.last?.transactionId.hasSameBytes(as: "cafe\u{301}") == true)
        #expect(try store.openConsumptionRequests(receivedSince: F.day(1.5)).map(\.notificationUUID) == ["n2"])

        let answer = ConsumptionAnswer(notificationUUID: "n1", transactionId: "caf\u{E9}", status: .sent,
                                       body: #"{"customerConsented":true}"#, date: F.day(1.1))
        #expect(try store.recordConsumptionAnswer(answer))
        var again = answer
        again.status = .expired
        #expect(try !store.recordConsumptionAnswer(again), "the first answer stays")
        #expect(try store.consumptionAnswer(notificationUUID: "n1") == answer)
        #expect(try store.consumptionAnswer(notificationUUID: "n2") == nil)
        #expect(try store.openConsumptionRequests(receivedSince: F.day(0)).map(\.notificationUUID) == ["n2"])
    }
}
