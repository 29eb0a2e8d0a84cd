import Foundation
import Testing
import TallyCore
@testable import TallySandbox

/// Sandboxes started from real .storekit files of the shared vectors.
@Suite("Sandbox from .storekit files")
struct StoreKitFileTests {
    /// `<package root>/../shared/vectors/storekit` as in CI; from a git worktree nested deeper, the nearest
    /// ancestor folder holding `shared/vectors/storekit`.
    static let vectors: URL = {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var folder = root.deletingLastPathComponent()
        while folder.pathComponents.count > 1 {
            let candidate = folder.appendingPathComponent("shared/vectors/storekit", isDirectory: true)
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return root.deletingLastPathComponent().appendingPathComponent("shared/vectors/storekit")
    }()

    static func sandbox(_ name: String) throws -> Sandbox {
        let url = vectors.appendingPathComponent(name)
        let catalog = try Catalog(storeKitData: try Data(contentsOf: url), fileName: name)
        return Sandbox(catalog: catalog, configuration: AppConfiguration(bundleId: "com.example.vector"),
                       start: Market.start)
    }

    @Test("billing issues and grace from the file: the free trial ends in grace of 16 days")
    func billingGraceFromFile() throws {
        var sandbox = try Self.sandbox("25-MoLinesGitHub-Anstop.storekit")
        #expect(sandbox.settings.billingIssue && sandbox.settings.gracePeriod)
        #expect(!sandbox.settings.askToBuy && !sandbox.settings.interrupted)
        #expect(sandbox.settings.storefront == "ESP" && sandbox.settings.locale == "es_ES")
        #expect(sandbox.settings.faults.isEmpty)
        let trial = try sandbox.purchase("premium.monthly").requireTransaction()
        #expect(trial.offerDiscountType == .freeTrial)
        #expect(trial.price == 0)
        #expect(trial.storefront == "ESP" && trial.storefrontId == "143454")
        #expect(trial.currency == sandbox.catalog.product("premium.monthly")?.currency)
        #expect(trial.expiresDate == Market.date(Market.start, plus: 1, .week))
        sandbox.advance(by: try SandboxDuration(parsing: "1w"))
        let info = try #require(sandbox.renewalInfos().first)
        #expect(info.isInBillingRetryPeriod == true)
        #expect(info.gracePeriodExpiresDate == Market.date(Market.start, plus: 1 * 7 + 16, .day))
    }

    @Test("Ask to Buy from the file: a tip waits for approval")
    func askToBuyFromFile() throws {
        var sandbox = try Self.sandbox("15-app-iptv-app.storekit")
        #expect(sandbox.settings.askToBuy)
        #expect(sandbox.settings.faults.isEmpty)
        let waiting = try sandbox.purchase("me.pedrocordeiro.IPTVapp.smallTip").requirePending()
        let tip = try sandbox.approve(purchaseId: waiting.purchaseId)
        #expect(tip.storefront == "LUX" && tip.storefrontId == "143451")
        #expect(tip.type == .consumable)
    }
}
