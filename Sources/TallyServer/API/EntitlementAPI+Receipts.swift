import Foundation
import TallyCore
import TallyHTTP
import TallyStorage

extension EntitlementAPI {
    /// `POST /v1/customers/{appUserId}/receipts` `{"receipt":"<base64>"}`: imports every in-app record.
    func postReceipt(_ appUserId: String, _ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let receipt = try requiredString(bodyObject(request), "receipt")
        let transactions = try verified(verifier.verifyReceipt(receipt), kind: "receipt")
        let now = clock.now()
        var outcome = RecordOutcome()
        if !transactions.isEmpty {
            let stored = transactions.map { StoredTransaction(transaction: $0, source: .receipt) }
            outcome = try record(stored, for: appUserId, now: now)
            if !outcome.kept.isEmpty, !outcome.changedAnything, outcome.unchanged.isEmpty {
                throw .ownedByAnotherCustomer
            }
        }
        let customer = try loadCustomer(appUserId, now: now)
        let imported = JSONWriter.object { writer in
            writer.field("inserted", outcome.inserted.count)
            writer.field("updated", outcome.updated.count)
            writer.field("unchanged", outcome.unchanged.count)
            writer.field("transferred", outcome.transfers.count)
            writer.field("kept", outcome.kept.count)
        }
        return APIResponse.json(Self.wrap(("customer", customer), ("imported", imported)))
    }
}
