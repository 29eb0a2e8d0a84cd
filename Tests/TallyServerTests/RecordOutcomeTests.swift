import Foundation
@testable import TallyServer
import TallyStorage
import Testing

@Suite struct RecordOutcomeTests {
    @Test func onlyInsertsUpdatesAndTransfersCountAsChanges() {
        #expect(!RecordOutcome(unchanged: ["1"], kept: ["2"]).changedAnything)
        #expect(RecordOutcome(inserted: ["1"]).changedAnything)
        #expect(RecordOutcome(updated: ["1"]).changedAnything)
        let move = OwnershipTransfer(originalTransactionId: "1", fromAppUserId: "a", toAppUserId: "b", date: Date())
        #expect(RecordOutcome(transfers: [move]).changedAnything)
    }
}
