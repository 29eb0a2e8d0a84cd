import Foundation
import Tally
import TallySandboxBackend
import Testing

/// A sandbox created from copies of the Market example's `.storekit` and `tally.json`, which a test edits.
final class EditableMarketSandbox {
    let folder: URL
    let directory: URL
    var storeKitFile: URL { folder.appendingPathComponent("Market.storekit") }
    var appConfigFile: URL { folder.appendingPathComponent("tally.json") }

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-reload-\(UUID().uuidString)")
        directory = folder.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let example = TallyProcess.packageRoot.appendingPathComponent("Examples/Market")
        for name in ["Market.storekit", "tally.json"] {
            try FileManager.default.copyItem(at: example.appendingPathComponent(name),
                                             to: folder.appendingPathComponent(name))
        }
        let created = try TallyProcess.run(["sandbox", "init", "--config", storeKitFile.path,
                                            "--data", directory.path, "--start", "2026-01-01T09:00:00Z"])
        guard created.status == 0 else { throw CLITestError("init failed: \(created.stderr)") }
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    func run(_ arguments: String...) throws -> TallyProcess.Output {
        try TallyProcess.run(["sandbox"] + arguments + ["--data", directory.path])
    }

    /// Rewrites the `.storekit` copy's JSON.
    func editStoreKit(_ body: (inout [String: Any]) throws -> Void) throws {
        try edit(storeKitFile, body)
    }

    /// Rewrites the `tally.json` copy.
    func editAppConfig(_ body: (inout [String: Any]) throws -> Void) throws {
        try edit(appConfigFile, body)
    }

    private func edit(_ file: URL, _ body: (inout [String: Any]) throws -> Void) throws {
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        try body(&json)
        try JSONSerialization.data(withJSONObject: json, options: [.prettyPrinted]).write(to: file)
    }

    /// Changes the entry of `id` in the `.storekit` copy's `products`.
    func editProduct(_ id: String, _ body: (inout [String: Any]) -> Void) throws {
        try editStoreKit { json in
            var products = try #require(json["products"] as? [[String: Any]])
            let index = try #require(products.firstIndex { $0["productID"] as? String == id })
            body(&products[index])
            json["products"] = products
        }
    }

    /// Removes `id` from every entitlement of the `tally.json` copy.
    func dropFromEntitlements(_ id: String) throws {
        try editAppConfig { json in
            var entitlements = try #require(json["entitlements"] as? [String: [String]])
            for (feature, ids) in entitlements { entitlements[feature] = ids.filter { $0 != id } }
            json["entitlements"] = entitlements.filter { !$0.value.isEmpty }
        }
    }
}

@Suite("tally sandbox reload: products added to the .storekit file are sold without a new sandbox")
struct SandboxReloadCLITests {
    /// A copy of the 10-coin pack under a new id and price.
    static func coinPack(_ id: String) -> [String: Any] {
        ["displayPrice": "19.99", "familyShareable": false, "internalID": "6E1A0099", "productID": id,
         "referenceName": "Coins 500", "type": "Consumable",
         "localizations": [["description": "A chest of 500 coins", "displayName": "500 Coins", "locale": "en_US"]]]
    }

    @Test func aProductAddedToTheFileIsSoldAfterReloadAndEarlierPurchasesStay() throws {
        let store = try EditableMarketSandbox()
        let premium = try store.run("buy", "market.premium", "--json").json()
        let premiumId = try #require((premium["transaction"] as? [String: Any])?["transactionId"] as? String)
        try store.editStoreKit { json in
            json["products"] = (json["products"] as? [[String: Any]] ?? []) + [Self.coinPack("market.coins.500")]
        }
        try store.editAppConfig { json in
            var currencies = json["currencies"] as? [String: [String: Int]] ?? [:]
            currencies["coins", default: [:]]["market.coins.500"] = 500
            json["currencies"] = currencies
        }
        let before = try store.run("buy", "market.coins.500", "--json")
        #expect(before.status == 2, "not sold before the reload: \(before.stdout)")

        let reloaded = try store.run("reload", "--json")
        #expect(reloaded.status == 0, "\(reloaded.stderr)")
        let summary = try reloaded.json()
        #expect(summary["added"] as? [String] == ["market.coins.500"])
        #expect(summary["removed"] as? [String] == [])
        #expect(summary["products"] as? Int == 9, "the 8 products and the season pass of the example, and the new one")
        #expect(summary["storeKitFile"] as? String == store.storeKitFile.standardizedFileURL.path)

        let products = try store.run("products", "--ids", "market.coins.500", "--json").json()
        let product = try #require((products["products"] as? [[String: Any]])?.first)
        #expect(product["displayName"] as? String == "500 Coins")
        #expect((product["displayPrice"] as? String)?.contains("19.99") == true)
        let bought = try store.run("buy", "market.coins.500", "--json")
        #expect(bought.status == 0)
        #expect(try bought.json()["outcome"] as? String == "purchased")

        let state = try store.run("state", "--json").json()
        #expect(state["nonConsumables"] as? [String] == ["market.premium"])
        #expect((state["balances"] as? [String: Any])?["coins"] as? Int == 500, "tally.json was read again")
        let history = try store.run("history", "--json").json()
        let transactions = try #require(history["transactions"] as? [[String: Any]])
        #expect(transactions.compactMap { ($0["transaction"] as? [String: Any])?["transactionId"] as? String }.first == premiumId)
        #expect(transactions.count == 2)
    }

    @Test func aRunningAppOnTheSandboxSellsTheAddedProductAfterReloadWithoutRestarting() async throws {
        let store = try EditableMarketSandbox()
        let backend = SandboxBackend(directory: store.directory, pollInterval: 0.05)
        let before = try await backend.products(for: ["market.coins.500"])
        #expect(before.products.isEmpty && before.invalidProductIds == ["market.coins.500"])
        try store.editStoreKit { json in
            json["products"] = (json["products"] as? [[String: Any]] ?? []) + [Self.coinPack("market.coins.500")]
        }
        #expect(try store.run("reload").status == 0)
        let after = try await backend.products(for: ["market.coins.500"])
        #expect(after.products.map(\.id) == ["market.coins.500"], "the same backend, no new process")
        guard case .purchased(let update) = try await backend.purchase(PurchaseRequest(productId: "market.coins.500")) else {
            Issue.record("not purchased")
            return
        }
        #expect(update.transaction.productId == "market.coins.500")
    }

    @Test func removingABoughtProductIsRefusedNamingItAndNothingChanges() throws {
        let store = try EditableMarketSandbox()
        #expect(try store.run("buy", "market.removeads").status == 0)
        try store.editStoreKit { json in
            let products = json["products"] as? [[String: Any]] ?? []
            json["products"] = products.filter { $0["productID"] as? String != "market.removeads" }
                + [Self.coinPack("market.coins.500")]
        }
        try store.dropFromEntitlements("market.removeads")

        let refused = try store.run("reload")
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("market.removeads is missing from the new catalog but is bought by account 'default'"),
                "\(refused.stderr)")
        #expect(try store.run("buy", "market.coins.500").status == 2, "the refused reload changed nothing")
        let state = try store.run("state", "--json").json()
        #expect(Features.of(state) == ["no-ads"])
    }

    @Test func changingTheTypeOfABoughtProductIsRefusedNamingBothTypes() throws {
        let store = try EditableMarketSandbox()
        #expect(try store.run("buy", "market.removeads").status == 0)
        try store.editProduct("market.removeads") { $0["type"] = "Consumable" }
        try store.dropFromEntitlements("market.removeads")

        let refused = try store.run("reload")
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("market.removeads changed type from NonConsumable to Consumable"),
                "\(refused.stderr)")
    }

    @Test func aProductNobodyBoughtMayGoAndAPriceMayChange() throws {
        let store = try EditableMarketSandbox()
        try store.editStoreKit { json in
            let products = json["products"] as? [[String: Any]] ?? []
            json["products"] = products.filter { $0["productID"] as? String != "market.removeads" }
        }
        try store.editProduct("market.premium") { $0["displayPrice"] = "4.99" }
        try store.dropFromEntitlements("market.removeads")

        let reloaded = try store.run("reload", "--json")
        #expect(reloaded.status == 0, "\(reloaded.stderr)")
        let summary = try reloaded.json()
        #expect(summary["removed"] as? [String] == ["market.removeads"])
        #expect(summary["changed"] as? [String] == ["market.premium"])
        #expect(try store.run("buy", "market.removeads").status == 2)
        let products = try store.run("products", "--ids", "market.premium", "--json").json()
        #expect(((products["products"] as? [[String: Any]])?.first?["displayPrice"] as? String)?.contains("4.99") == true)
    }

    @Test func aBundleIdChangeIsRefused() throws {
        let store = try EditableMarketSandbox()
        try store.editAppConfig { $0["bundleId"] = "com.example.other" }
        let refused = try store.run("reload")
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("the bundle id changed from com.example.market to com.example.other"),
                "\(refused.stderr)")
    }

    @Test func anUnreadableFileIsAUsageErrorNamingIt() throws {
        let store = try EditableMarketSandbox()
        try FileManager.default.removeItem(at: store.storeKitFile)
        let refused = try store.run("reload")
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("cannot read \(store.storeKitFile.standardizedFileURL.path)"), "\(refused.stderr)")
    }
}
