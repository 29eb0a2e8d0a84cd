import Foundation
import Testing
import TallyCore
@testable import TallySandbox

@Suite("Sandbox directory: what a failing call did is kept")
struct DirectoryFaultTests {
    @Test("a fault taken through the directory is counted and logged on disk")
    func faultTakenThroughTheDirectory() throws {
        let scratch = try ScratchDirectory()
        let directory = SandboxDirectory(url: scratch.url.appendingPathComponent("store"))
        var sandbox = try directory.create(catalog: Market.catalog(), configuration: Market.configuration,
                                           start: Market.start)
        sandbox.failNext(.products, with: .networkError, count: 2)
        try directory.save(sandbox)
        for left in [1, 0] {
            #expect(throws: SandboxError.self) {
                try directory.answer { sandbox throws(SandboxError) in try sandbox.products(ids: [Market.coins]) }
            }
            #expect(try directory.load().settings.faults.first?.remaining == (left == 0 ? nil : left))
        }
        let answered = try directory.answer { sandbox throws(SandboxError) in try sandbox.products(ids: [Market.coins]) }
        #expect(answered.products.map(\.id) == [Market.coins])
        let kinds = try directory.load().events.map(\.kind)
        #expect(kinds.filter { $0 == .failed }.count == 2)
        #expect(kinds.last == .productsRequested)
    }

    @Test("clearing an API's faults removes counted and persistent ones, and only that API's")
    func clearFaults() throws {
        var sandbox = Market.sandbox()
        sandbox.failNext(.restore, with: .systemError, count: 4)
        sandbox.setPersistentFailure(.restore, .networkError)
        sandbox.failNext(.purchase, with: .networkError)
        #expect(sandbox.clearFaults(.restore) == 2)
        #expect(try sandbox.restore().isEmpty)
        #expect(sandbox.settings.faults.map(\.api) == [.purchase])
    }

    @Test("a declined purchase is kept for the app, across a save and load")
    func declinedKept() throws {
        let scratch = try ScratchDirectory()
        let directory = SandboxDirectory(url: scratch.url.appendingPathComponent("store"))
        var sandbox = try directory.create(catalog: Market.catalog(), configuration: Market.configuration,
                                           start: Market.start)
        sandbox.set(.askToBuy, enabled: true, account: "kid")
        let first = try #require(sandbox.purchase(Market.coins, account: "kid").pendingPurchase)
        let second = try #require(sandbox.purchase(Market.premium, account: "kid").pendingPurchase)
        try sandbox.decline(purchaseId: second.purchaseId)
        try sandbox.decline(purchaseId: first.purchaseId)
        try directory.save(sandbox)
        let reloaded = try directory.load()
        #expect(reloaded.declinedPurchases(account: "kid") == [second.purchaseId, first.purchaseId])
        #expect(reloaded.declinedPurchases(account: "default").isEmpty)
        #expect(reloaded.canMakePayments(account: "kid"))
    }

    @Test("the change counter moves with every save, even of the same state, and not without one")
    func stampChangesWithEverySave() throws {
        let scratch = try ScratchDirectory()
        let directory = SandboxDirectory(url: scratch.url.appendingPathComponent("store"))
        let store = SandboxStore(directory: directory)
        #expect(store.stamp() == nil)
        let sandbox = try directory.create(catalog: Market.catalog(), configuration: Market.configuration,
                                           start: Market.start)
        let first = try #require(store.stamp())
        #expect(first.now == sandbox.now)
        #expect(store.stamp() == first)
        _ = try directory.load()
        _ = try store.read(account: "default")
        #expect(store.stamp() == first)
        try directory.save(sandbox)
        #expect(try #require(store.stamp()).generation == first.generation + 1)
        try directory.update { $0.advance(by: try SandboxDuration(parsing: "1d")) }
        let advanced = try #require(store.stamp())
        #expect(advanced.generation == first.generation + 2)
        #expect(advanced.now == sandbox.now.addingTimeInterval(86_400))
    }
}
