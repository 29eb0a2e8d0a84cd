import Foundation
import Testing
import TallyCore
@testable import TallySandbox

@Suite("Sandbox reload: a new catalog keeps the store's state or is refused")
struct ReloadTests {
    /// Market's catalog with `body` applied to its products.
    static func catalog(_ body: (inout [CatalogProduct]) -> Void) -> Catalog {
        var catalog = Market.catalog()
        body(&catalog.products)
        return catalog
    }

    @Test func aSubscriptionMovedToAnotherGroupIsRefusedAndNothingChanges() throws {
        var sandbox = Market.sandbox()
        _ = try sandbox.purchase(Market.proMonthly, device: "iphone").requireTransaction()
        let before = sandbox
        let moved = Self.catalog { products in
            if let index = products.firstIndex(where: { $0.id == Market.proMonthly }) {
                products[index].subscription?.groupId = "news"
            }
        }
        #expect {
            try sandbox.reload(catalog: moved, configuration: Market.configuration)
        } throws: { error in
            guard let error = error as? SandboxError else { return false }
            return error.code == .catalogConflict
                && error.message.contains("market.pro.monthly moved from subscription group pro to news but is bought by account "
                                          + "'default', renewing next for account 'default', subscribed to by account 'default'")
        }
        #expect(sandbox.catalog == before.catalog)
        #expect(sandbox.events.count == before.events.count)
    }

    @Test func aPendingPurchaseKeepsItsProduct() throws {
        var sandbox = Market.sandbox()
        sandbox.set(.askToBuy, enabled: true)
        let pending = try sandbox.purchase(Market.premium, device: "iphone").requirePending()
        let without = Self.catalog { $0.removeAll { $0.id == Market.premium } }
        var configuration = Market.configuration
        configuration.entitlements = ["noAds": [Market.removeAds], "pro": [Market.plusMonthly, Market.proMonthly,
                                                                           Market.proYearly, Market.basicMonthly]]
        #expect {
            try sandbox.reload(catalog: without, configuration: configuration)
        } throws: { error in
            (error as? SandboxError)?.message.contains("market.premium is missing from the new catalog but is "
                                                       + "pending (\(pending.purchaseId))") == true
        }
    }

    @Test func anAddedProductSellsAndTheClockAndTransactionsStay() throws {
        var sandbox = Market.sandbox()
        let first = try sandbox.purchase(Market.removeAds, device: "iphone").requireTransaction()
        sandbox.advance(by: try SandboxDuration(parsing: "3d"))
        let now = sandbox.now
        let added = Self.catalog {
            $0.append(CatalogProduct(id: "market.gems", kind: .consumable, price: Decimal(string: "1.99")!,
                                     currency: "USD"))
        }
        let source = SandboxCatalogSource(storeKitFile: "/tmp/Market.storekit", appConfigurationFile: nil)
        let summary = try sandbox.reload(catalog: added, configuration: Market.configuration, source: source)
        #expect(summary.added == ["market.gems"])
        #expect(summary.removed.isEmpty && summary.changed.isEmpty)
        #expect(sandbox.catalogSource == source)
        #expect(sandbox.now == now)
        #expect(sandbox.transactions().map(\.transactionId) == [first.transactionId])
        #expect(sandbox.events.last?.kind == .catalogReloaded)
        let gems = try sandbox.purchase("market.gems", device: "iphone").requireTransaction()
        #expect(gems.price == 1_990)
    }
}
