import Foundation
import TallyCore

extension Sandbox {
    /// Answers a product request: known ids give products, unknown ids come back in `invalidIdentifiers`.
    /// May fail by an injected fault.
    public mutating func products(ids: [String]) throws(SandboxError) -> ProductResponse {
        if let failure = settings.takeFault(.products) {
            let error = failure.error(for: .products)
            log(.failed, account: "", detail: error.message)
            throw error
        }
        var seen: Set<String> = []
        var response = ProductResponse(products: [], invalidIdentifiers: [])
        for id in ids where seen.insert(id).inserted {
            if let entry = productIndex[id] {
                response.products.append(entry.product)
            } else {
                response.invalidIdentifiers.append(id)
            }
        }
        log(.productsRequested, account: "",
            detail: "\(response.products.count) found, \(response.invalidIdentifiers.count) invalid")
        return response
    }

    /// Turns a switch on or off, globally (account nil) or for one account. Turning billing issues off
    /// recovers every subscription in billing retry or grace that it concerns: it renews now.
    public mutating func set(_ toggle: SandboxToggle, enabled: Bool, account: String? = nil) {
        settings.set(toggle, enabled: enabled, account: account)
        log(.settingsChanged, account: account ?? "", detail: "\(toggle.rawValue) \(enabled ? "on" : "off")")
        if toggle == .billingIssue && !enabled {
            recoverBilling(accounts: account.map { [$0] } ?? Array(accounts.keys))
        }
    }

    /// Makes the next `count` calls of an API fail with `error` (after failures already queued for it).
    /// A count below 1 queues nothing.
    public mutating func failNext(_ api: SandboxAPI, with error: SandboxFailure, count: Int = 1) {
        guard count >= 1 else { return }
        settings.faults.append(SandboxSettings.Fault(api: api, failure: error, remaining: count))
        log(.settingsChanged, account: "", detail: "fail next \(count) \(api.rawValue) with \(error.rawValue)")
    }

    /// Makes every call of an API fail with `failure` until called again with nil, as an enabled Xcode
    /// simulated error does.
    public mutating func setPersistentFailure(_ api: SandboxAPI, _ failure: SandboxFailure?) {
        settings.faults.removeAll { $0.api == api && $0.remaining == nil }
        if let failure {
            settings.faults.append(SandboxSettings.Fault(api: api, failure: failure, remaining: nil))
        }
        log(.settingsChanged, account: "",
            detail: "\(api.rawValue) always fails: \(failure?.rawValue ?? "off")")
    }

    /// Removes every injected failure of an API, counted or persistent (`tally sandbox fail API none`).
    /// Returns how many were removed.
    @discardableResult
    public mutating func clearFaults(_ api: SandboxAPI) -> Int {
        let before = settings.faults.count
        settings.faults.removeAll { $0.api == api }
        let removed = before - settings.faults.count
        log(.settingsChanged, account: "", detail: "\(api.rawValue) faults cleared (\(removed))")
        return removed
    }
}
