import Foundation
import Testing
import TallyCore
@testable import TallySandbox

@Suite("Sandbox state directory")
struct PersistenceTests {
    @Test("unfinished transactions survive save and load and are delivered until finished")
    func unfinishedSurviveReload() throws {
        let scratch = try ScratchDirectory()
        let directory = SandboxDirectory(url: scratch.url.appendingPathComponent("store"))
        var sandbox = try directory.create(catalog: Market.catalog(), configuration: Market.configuration,
                                           start: Market.start)
        let coins = try sandbox.purchase(Market.coins, device: "iphone").requireTransaction()
        _ = try sandbox.purchase(Market.proMonthly, device: "iphone").requireTransaction()
        sandbox.advance(by: try SandboxDuration(parsing: "1M"))
        try directory.save(sandbox)

        var reloaded = try directory.load()
        #expect(reloaded.unfinished(device: "iphone") == sandbox.unfinished(device: "iphone"))
        #expect(reloaded.unfinished(device: "iphone").count == 3)
        #expect(reloaded.transactions() == sandbox.transactions())
        #expect(reloaded.renewalInfos() == sandbox.renewalInfos())
        #expect(reloaded.events == sandbox.events)
        #expect(reloaded.now == sandbox.now)
        #expect(reloaded.settings == sandbox.settings)
        #expect(reloaded.catalog == sandbox.catalog)
        #expect(reloaded.configuration == sandbox.configuration)

        reloaded.finish(transactionId: coins.transactionId, device: "iphone")
        try directory.save(reloaded)
        var again = try directory.load()
        #expect(again.unfinished(device: "iphone").count == 2)
        #expect(!again.unfinished(device: "iphone").contains { $0.transactionId == coins.transactionId })
        let next = try again.purchase(Market.coins, device: "iphone").requireTransaction()
        #expect(next.transactionId > reloaded.transactions().map(\.transactionId).max() ?? "")
        _ = try again.refund(transactionId: next.transactionId)
        #expect(again.transactions().last?.isRevoked == true)
    }

    @Test("pending purchases and injected faults survive save and load")
    func pendingSurvivesReload() throws {
        let scratch = try ScratchDirectory()
        let directory = SandboxDirectory(url: scratch.url)
        var sandbox = try directory.create(catalog: Market.catalog(), configuration: Market.configuration,
                                           start: Market.start)
        sandbox.set(.askToBuy, enabled: true, account: "child")
        sandbox.environment = .xcode
        let waiting = try sandbox.purchase(Market.premium, account: "child", device: "ipad").requirePending()
        sandbox.failNext(.purchase, with: .networkError, count: 2)
        #expect(sandbox.purchase(Market.coins).error?.code == .networkError)
        try directory.save(sandbox)

        var reloaded = try directory.load()
        #expect(reloaded.pendingPurchases() == [waiting])
        #expect(reloaded.settings.faults.first?.remaining == 1)
        #expect(reloaded.purchase(Market.coins).error?.code == .networkError)
        let approved = try reloaded.approve(purchaseId: waiting.purchaseId)
        #expect(approved.environment == .xcode)
        #expect(reloaded.unfinished(account: "child", device: "ipad") == [approved])
    }

    @Test("a corrupt or half-written state file is reported by name and left untouched")
    func corruptState() throws {
        let scratch = try ScratchDirectory()
        let directory = SandboxDirectory(url: scratch.url)
        let sandbox = try directory.create(catalog: Market.catalog(), configuration: Market.configuration,
                                           start: Market.start)
        for damaged in [Data("{ not json".utf8), Data(repeating: 0x5a, count: 8192)] {
            try damaged.write(to: directory.stateFile)
            do {
                _ = try directory.load()
                Issue.record("a damaged file must not load")
            } catch {
                #expect(error.code == .corruptState)
                #expect(error.message.contains(directory.stateFile.path))
                #expect(error.message.contains("is not a valid sandbox database"))
            }
            #expect(try Data(contentsOf: directory.stateFile) == damaged)
        }
        do {
            _ = try directory.create(catalog: Market.catalog(), configuration: Market.configuration, start: Market.start)
            Issue.record("create must not overwrite")
        } catch {
            #expect(error.code == .stateExists)
        }
        try FileManager.default.removeItem(at: directory.stateFile)
        try directory.save(sandbox)
        #expect(try directory.load().events == sandbox.events)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path)
        #expect(leftovers.sorted() == ["sandbox.lock", "sandbox.sqlite"])
    }

    @Test("loading from a directory without a sandbox says so")
    func missingState() throws {
        let scratch = try ScratchDirectory()
        do {
            _ = try SandboxDirectory(url: scratch.url).load()
            Issue.record("an empty directory must not load")
        } catch {
            #expect(error.code == .noState)
        }
    }

    @Test("a purchase result encodes to JSON and back")
    func purchaseResultJSON() throws {
        var sandbox = Market.sandbox()
        let results = [sandbox.purchase(Market.coins), sandbox.purchase("market.nope")]
        for result in results {
            let data = try JSONEncoder().encode(result)
            #expect(try JSONDecoder().decode(PurchaseResult.self, from: data) == result)
        }
        let text = String(decoding: try JSONEncoder().encode(results[1]), as: UTF8.self)
        #expect(text.contains("\"outcome\":\"failed\""))
    }
}
