import Foundation
import TallyServer

/// `tally serve reconcile --data DIR --config FILE --customer ID`: one reconciliation of a customer with the App
/// Store Server API, over the data directory (while no `tally serve` uses it; with one running, use
/// `POST /v1/customers/{id}/reconcile`).
enum ServeReconcile {
    static func run(_ words: [String]) throws -> Int32 {
        let arguments = try Arguments(words, flags: ["json"], options: ["data", "config", "customer"])
        if let extra = arguments.positionals.first { throw UsageError("unexpected argument '\(extra)'") }
        let paths = try ServeOffline.paths(arguments)
        guard let customer = arguments.value("customer"), !customer.isEmpty else { throw UsageError("missing --customer ID") }
        let api: EntitlementAPI
        switch ServeOffline.api(paths, command: "reconcile") {
        case .success(let built): api = built
        case .failure(let status): return status.code
        }
        let result: Reconciliation
        do {
            result = try api.reconcileCustomer(customer)
        } catch {
            Output.error("tally serve reconcile: \(error.description)")
            switch error {
            case .notConfigured, .nothingToReconcile: return ExitCode.usage
            default: return ExitCode.refused
            }
        }
        let summary: [String: Any] = [
            "pages": result.pages, "transactions": result.transactions, "inserted": result.inserted,
            "updated": result.updated, "unchanged": result.unchanged, "kept": result.kept,
            "renewalInfosUpdated": result.renewalInfosUpdated, "pending": result.pending, "revision": result.revision ?? NSNull(),
        ]
        if arguments.flag("json") {
            let json = try JSONSerialization.data(withJSONObject: summary, options: [.sortedKeys])
            print(String(decoding: json, as: UTF8.self))
        } else {
            print("reconciled \(customer): \(result.pages) pages, \(result.transactions) transactions — "
                + "\(result.inserted) inserted, \(result.updated) updated, \(result.unchanged) unchanged, "
                + "\(result.kept) kept, \(result.renewalInfosUpdated) renewal infos updated, "
                + "\(result.pending) left for the customer whose account token they carry")
        }
        return ExitCode.ok
    }
}
