import Foundation
import TallyCore
import TallyHTTP

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
        var writer = JSONWriter()
        writer.beginObject()
        for (name, count) in [("inserted", outcome.inserted.count), ("updated", outcome.updated.count),
                              ("unchanged", outcome.unchanged.count), ("transferred", outcome.transfers.count),
                              ("kept", outcome.kept.count)] {
            writer.key(name)
            writer.integer(count)
        }
        writer.endObject()
        return APIResponse.json(Self.wrap(("customer", customer), ("imported", writer.bytes)))
    }
}
