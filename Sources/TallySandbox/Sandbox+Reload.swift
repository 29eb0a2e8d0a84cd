import Foundation
import TallyCore

/// What a reload changed in the catalog.
public struct SandboxReload: Sendable, Hashable, Codable {
    /// Products in the new catalog only, sorted.
    public var added: [String]
    /// Products in the old catalog only, sorted (none of them bought, pending or subscribed to).
    public var removed: [String]
    /// Products in both whose definition changed (price, names, offers), sorted.
    public var changed: [String]
    /// How many products the store sells now.
    public var products: Int
}

extension Sandbox {
    /// Sells `catalog` with `configuration` from now on, keeping every account, transaction, subscription,
    /// pending purchase, switch and the clock; `source` (when given) is recorded as the files to read at the next
    /// reload. Refuses with ``SandboxError/Code/catalogConflict``, changing nothing, when the new files would break
    /// what the sandbox holds: a product that was bought, is pending or is subscribed to (current or renewing
    /// next) missing from `catalog` or of another type or subscription group, a bundle id that changed, or a
    /// configuration that does not match `catalog`. Every problem is named.
    @discardableResult
    public mutating func reload(catalog new: Catalog, configuration newConfiguration: AppConfiguration,
                                source: SandboxCatalogSource? = nil) throws(SandboxError) -> SandboxReload {
        var problems = catalogConflicts(with: new)
        if newConfiguration.bundleId != configuration.bundleId {
            problems.append("the bundle id changed from \(configuration.bundleId) to \(newConfiguration.bundleId) "
                + "(transactions and keys are issued for \(configuration.bundleId))")
        }
        do {
            try newConfiguration.validate(against: new)
        } catch {
            problems.append(error.message)
        }
        guard problems.isEmpty else {
            throw SandboxError(.catalogConflict, "the reloaded catalog would break this sandbox's state, nothing was "
                + "changed:\n" + problems.map { "- \($0)" }.joined(separator: "\n"))
        }
        let summary = Self.difference(from: catalog, to: new)
        catalog = new
        configuration = newConfiguration
        if let source { catalogSource = source }
        productIndex = IndexedProduct.index(new)
        var detail = "\(summary.products) products"
        if !summary.added.isEmpty { detail += "; added \(summary.added.joined(separator: ", "))" }
        if !summary.removed.isEmpty { detail += "; removed \(summary.removed.joined(separator: ", "))" }
        log(.catalogReloaded, account: "", detail: detail)
        return summary
    }

    /// Every way `new` would break what the sandbox holds, one sentence each, sorted.
    func catalogConflicts(with new: Catalog) -> [String] {
        var uses: [String: Set<String>] = [:]
        for (account, record) in accounts {
            for transaction in record.transactions {
                uses[transaction.productId, default: []].insert("bought by account '\(account)'")
            }
            for chain in record.chains.values {
                uses[chain.productId, default: []].insert("subscribed to by account '\(account)'")
                uses[chain.nextProductId, default: []].insert("renewing next for account '\(account)'")
            }
        }
        for purchase in pending {
            uses[purchase.productId, default: []].insert("pending (\(purchase.purchaseId))")
        }
        var problems: [String] = []
        for (id, reasons) in uses {
            guard let old = productIndex[id]?.product else { continue }
            let why = reasons.sorted().joined(separator: ", ")
            guard let product = new.product(id) else {
                problems.append("\(id) is missing from the new catalog but is \(why)")
                continue
            }
            if product.kind != old.kind {
                problems.append("\(id) changed type from \(old.kind.storeKitType) to \(product.kind.storeKitType) but is \(why)")
            } else if let oldGroup = old.subscription?.groupId, product.subscription?.groupId != oldGroup {
                problems.append("\(id) moved from subscription group \(oldGroup) to "
                    + "\(product.subscription?.groupId ?? "none") but is \(why)")
            }
        }
        return problems.sorted()
    }

    static func difference(from old: Catalog, to new: Catalog) -> SandboxReload {
        let before = IndexedProduct.index(old), after = IndexedProduct.index(new)
        return SandboxReload(
            added: after.keys.filter { before[$0] == nil }.sorted(),
            removed: before.keys.filter { after[$0] == nil }.sorted(),
            changed: after.keys.filter { id in before[id].map { $0.product != after[id]?.product } ?? false }.sorted(),
            products: after.count)
    }
}
