import Foundation
@testable import TallyServer
import TallyStorage
import Testing

/// The dashboard's delivery anomalies (``DashboardNotification/anomaly(at:)``).
@Suite struct DashboardAnomalyTests {
    private static let signed = Date(timeIntervalSince1970: 1_800_000_000)

    private func row(_ type: String = "DID_RENEW", result: String, receivedAfter: TimeInterval = 5) -> DashboardNotification {
        DashboardNotification(notificationUUID: "n", notificationType: type, subtype: nil, signedDate: Self.signed,
                              receivedDate: Self.signed.addingTimeInterval(receivedAfter), appUserId: nil,
                              originalTransactionId: "1", result: result,
                              position: DashboardListPosition(number: 1, id: "n"))
    }

    @Test func anOrdinaryDeliveryHasNone() {
        #expect(row(result: "applied").anomaly(at: Self.signed.addingTimeInterval(86_400)) == nil)
        #expect(row("CONSUMPTION_REQUEST", result: "unchanged").anomaly(at: Self.signed) == nil,
                "a type that never changes state is not out of order")
        #expect(row(result: "pending").anomaly(at: Self.signed.addingTimeInterval(60)) == nil, "waiting a minute")
    }

    @Test func lateWaitingAndOutOfOrderAreCalledOut() {
        let late = row(result: "applied", receivedAfter: 3 * 3_600).anomaly(at: Self.signed.addingTimeInterval(4 * 3_600))
        #expect(late == "received 3 h after Apple signed it (Apple's retries)")
        let waiting = row(result: "pending").anomaly(at: Self.signed.addingTimeInterval(3 * 86_400 + 5))
        #expect(waiting == "waiting 3 d 0 h for a customer to post its chain")
        let stale = row("REFUND", result: "unchanged", receivedAfter: 7_200).anomaly(at: Self.signed.addingTimeInterval(7_300))
        #expect(stale == "received 2 h after Apple signed it (Apple's retries); changed nothing: it came after newer facts of its chain (out of order or replayed)")
    }
}
