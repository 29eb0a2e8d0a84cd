#if os(Linux)
import Foundation
@_spi(Scripting) import StoreKit
import Tally
import TallyCore
import TallySandbox
import TallySandboxBackend
import Testing

/// The App Store's sheets and messages through the engine over the sandbox backend: what the sandbox records.
/// (The scene comes from the stand-ins, which exist on Linux only; so does the scene-taking API here.)
@Suite("Sandbox backend: sheets, refund requests and messages")
struct SandboxSheetsTests {
    private func launch(_ world: SandboxWorld) async throws -> Store {
        try await Store(backend: SandboxBackend(directory: world.directory, pollInterval: 0.02),
                        catalog: world.market.catalog, configuration: world.market.configuration,
                        directory: world.directory.appendingPathComponent("app"), locale: "en_US")
    }

    @Test("the manage-subscriptions and offer-code sheets an app shows are recorded in the sandbox, in order")
    @MainActor
    func sheetsRecorded() async throws {
        let world = try SandboxWorld()
        let store = try await launch(world)
        let scene = StoreKitSheetScript.scene("main")
        try await store.showManageSubscriptions(in: scene, subscriptionGroupId: "market.pro")
        try await store.presentOfferCodeRedeemSheet(in: scene)
        try await store.showManageSubscriptions(in: scene)
        let calls = try world.sandbox.load().sheetCalls(account: "default")
        #expect(calls.map(\.sheet) == [.manageSubscriptions, .offerCodeRedeem, .manageSubscriptions])
        #expect(calls.map(\.subscriptionGroupId) == ["market.pro", nil, nil])
        #expect(calls.allSatisfy { $0.device == "default" })
        await store.close()
    }

    @Test("a refund request from the app is an open request in the sandbox; a second is alreadyRequested")
    @MainActor
    func refundRequestOpensOne() async throws {
        let world = try SandboxWorld()
        let store = try await launch(world)
        let scene = StoreKitSheetScript.scene("history")
        guard case .purchased(let coins) = try await store.purchase("market.coins.10"),
              case .purchased(let premium) = try await store.purchase("market.premium") else {
            Issue.record("not purchased"); return
        }
        #expect(try await store.beginRefundRequest(for: coins.transactionId, in: scene) == .requested)
        let requests = try world.sandbox.load().refundRequests(account: "default")
        #expect(requests.map(\.transactionId) == [coins.transactionId])
        #expect(requests.first?.decision == nil && requests.first?.reason == "OTHER")
        #expect(try await store.beginRefundRequest(for: coins.transactionId, in: scene) == .alreadyRequested)

        let nonConsumable = await #expect(throws: StoreError.self) {
            try await store.beginRefundRequest(for: premium.transactionId, in: scene)
        }
        #expect(nonConsumable?.code == .invalidValue)
        let unknown = await #expect(throws: StoreError.self) { try await store.beginRefundRequest(for: "999", in: scene) }
        #expect(unknown?.code == .invalidValue)
        #expect(try world.sandbox.load().refundRequests(account: "default").count == 1)
        await store.close()
    }

    @Test("a sandbox message reaches storeMessages() once; display(_:in:) marks it shown, a second display refuses")
    @MainActor
    func messageShown() async throws {
        let world = try SandboxWorld()
        try world.sandbox.update { _ = $0.sendMessage(.billingIssue) }
        let store = try await launch(world)
        let messages = Collected(store.storeMessages())
        let got = try #require(await messages.first(1))
        #expect(got.map(\.reason) == [.billingIssue])
        #expect(try world.sandbox.load().messages(account: "default").first?.deliveredDate != nil)
        #expect(try world.sandbox.load().messages(account: "default").first?.displayedDate == nil)

        let scene = StoreKitSheetScript.scene("main")
        try await store.display(got[0], in: scene)
        #expect(try world.sandbox.load().messages(account: "default").first?.displayedDate != nil)
        await #expect(throws: StoreError.self) { try await store.display(got[0], in: scene) }
        await #expect(throws: StoreError.self) {
            try await store.display(StoreMessage(id: "message-9", reason: .billingIssue), in: scene)
        }
        await store.close()
    }
}
#endif
