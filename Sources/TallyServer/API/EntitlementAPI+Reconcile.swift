import Foundation
import TallyAppStoreAPI
import TallyCore
import TallyHTTP
import TallyStorage

extension EntitlementAPI {
    /// `POST /v1/customers/{appUserId}/reconcile` (secret key): brings the customer level with the App Store
    /// through the App Store Server API (``Reconciler``) and answers the state and what changed; 503
    /// `reconcile_busy` at once while `limits.maxConcurrentReconciles` others run (``ReconcileGate``).
    func reconcile(_ appUserId: String) throws(APIError) -> HTTPResponse {
        let attempt = reconciles.run {
            Result { () throws(ReconcileError) in
                try Self.reconcile(appUserId, configuration: configuration, verifier: verifier, store: store,
                                   now: { [clock] in clock.now() })
            }
        }
        guard let attempt else { throw .reconcileBusy(limit: reconciles.limit) }
        let result: Reconciliation
        switch attempt {
        case .success(let done): result = done
        case .failure(let error): throw Self.apiError(error)
        }
        if result.inserted + result.updated + result.renewalInfosUpdated > 0 { cache.invalidate(appUserId) }
        let customer = try loadCustomer(appUserId, now: clock.now())
        let reconciled = JSONWriter.object { writer in
            writer.field("pages", result.pages)
            writer.field("transactions", result.transactions)
            writer.field("inserted", result.inserted)
            writer.field("updated", result.updated)
            writer.field("unchanged", result.unchanged)
            writer.field("kept", result.kept)
            writer.field("renewalInfosUpdated", result.renewalInfosUpdated)
            writer.field("pending", result.pending)
            writer.field("revision", result.revision)
        }
        return APIResponse.json(Self.wrap(("customer", customer), ("reconciled", reconciled)))
    }

    /// Runs one reconciliation of `appUserId` with the configured App Store Server API (also for `tally serve
    /// reconcile`, over the store without HTTP).
    static func reconcile(_ appUserId: String, configuration: ServerConfiguration, verifier: PurchaseVerifier,
                          store: any CustomerStore, now: @escaping @Sendable () -> Date) throws(ReconcileError)
        -> Reconciliation
    {
        guard let settings = configuration.appStoreServerAPI else { throw .notConfigured }
        let client = settings.client(bundleId: configuration.verification.bundleId)
        return try Reconciler(client: client, verifier: verifier, environment: settings.environment, store: store,
                              now: now).reconcile(appUserId)
    }

    /// The documented answer for a failed reconciliation.
    static func apiError(_ error: ReconcileError) -> APIError {
        switch error {
        case .notConfigured:
            return APIError(409, "not_configured", "appStoreServerAPI is not configured in tally-server.json")
        case .nothingToReconcile(let message): return APIError(409, "nothing_to_reconcile", message)
        case .appStore(let failure):
            var answer = APIError(502, failure.reason == .unauthorized ? "app_store_unauthorized" : "app_store_unavailable",
                                  "the App Store Server API: \(failure.reason.rawValue)"
                                  + (failure.status.map { " (HTTP \($0))" } ?? "") + "; what was read before is stored")
            answer.logMessage = "reconcile: \(failure)"
            return answer
        case .verification(let message):
            var answer = APIError(502, "app_store_unverifiable", message)
            answer.logMessage = "reconcile: \(message)"
            return answer
        case .store(let failure): return .storeFailure(failure)
        }
    }
}

extension EntitlementAPI {
    /// Reconciles `appUserId` now, as `POST …/reconcile` does, and clears its cached state; for `tally serve
    /// reconcile` (run it while no server uses the same data directory: another process's cache cannot be cleared).
    public func reconcileCustomer(_ appUserId: String) throws(ReconcileError) -> Reconciliation {
        let result = try Self.reconcile(appUserId, configuration: configuration, verifier: verifier, store: store,
                                        now: { [clock] in clock.now() })
        cache.invalidate(appUserId)
        return result
    }
}
