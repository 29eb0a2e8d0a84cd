import Foundation
import TallyCore


extension Store {
    /// Ends pending purchases the store declined (Ask to Buy declined by a parent): each leaves
    /// ``pendingPurchases`` durably, then ``StoreEvent/declined(_:)`` is emitted with its context. Ids not
    /// pending here (another device's purchase, one already ended) change nothing.
    func endDeclined(_ purchaseIds: [String]) {
        var seen: Set<String> = []
        let ended = purchaseIds.compactMap { id in seen.insert(id).inserted ? record.pending[id] : nil }
        guard !ended.isEmpty else { return }
        do {
            try write(ended.map { .resolved($0.id) })
        } catch {
            report(StoreDiagnostic(.deliveryFailed, "ending declined purchase \(ended.map(\.id).joined(separator: ", ")) "
                + "failed: \(error.message); it stays pending until the next launch"))
            hub.emit([.failed(productId: ended.first?.productId, reason: error)])
            return
        }
        hub.emit(ended.map { .declined($0) })
    }

    /// Ends what was declined while the app was closed.
    func endDeclinedAtLaunch() async {
        guard !record.pending.isEmpty else { return }
        do {
            endDeclined(try await backend.declinedPurchases())
        } catch {
            let failure = StoreError.from(error, doing: "reading declined purchases")
            report(StoreDiagnostic(.deliveryFailed, failure.message))
        }
    }
}
