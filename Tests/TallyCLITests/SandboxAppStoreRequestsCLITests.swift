import Foundation
import Tally
import TallyCore
import TallySandbox
import TallySandboxBackend
import Testing

/// `tally sandbox promote` and `tally sandbox message`, run as the built binary, received by the engine over the
/// sandbox backend in this process.
@Suite struct SandboxAppStoreRequestsCLITests {
    private func launch(_ sandbox: MarketSandbox) async throws -> Store {
        let saved = try SandboxDirectory(url: sandbox.directory).load()
        return try await Store(
            backend: SandboxBackend(directory: sandbox.directory, pollInterval: 0.05),
            catalog: saved.catalog, configuration: saved.configuration,
            directory: sandbox.directory.appendingPathComponent("app-\(UUID().uuidString)"), locale: "en_US")
    }

    /// The JSON array a `--json` listing prints.
    private func listing(_ sandbox: MarketSandbox, _ command: String) throws -> [[String: Any]] {
        let output = try sandbox.run(command, "--json")
        guard output.status == 0,
              let list = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Any]] else {
            throw CLITestError("\(command) --json: \(output.status) \(output.stdout) \(output.stderr)")
        }
        return list
    }

    /// The first element `stream` yields, read by a task of its own (cancel it to stop waiting).
    private func first<Element: Sendable>(of stream: AsyncStream<Element>) -> Task<Element?, Never> {
        Task {
            var iterator = stream.makeAsyncIterator()
            return await iterator.next()
        }
    }

    @Test("promote: the app receives the intent once and completes it by buying; unknown products are exit 2")
    func promotedPurchase() async throws {
        let sandbox = try MarketSandbox()
        #expect(try sandbox.run("promote", "market.nope").status == 2)
        let promoted = try sandbox.run("promote", "market.premium")
        #expect(promoted.status == 0 && promoted.stdout.contains("intent-1"), "\(promoted.stdout)\(promoted.stderr)")
        #expect(try listing(sandbox, "promote").first?["deliveredDate"] == nil, "waiting for the app")

        let store = try await launch(sandbox)
        let intent = first(of: store.promotedPurchases())
        let taken = try await ServerLinkTests.eventually(.seconds(20)) {
            try listing(sandbox, "promote").first?["deliveredDate"] != nil
        }
        if !taken { intent.cancel() }
        #expect(taken, "the engine took the intent from the sandbox")
        let received = try #require(await intent.value)
        #expect(received == PromotedPurchase(productId: "market.premium"))
        guard case .purchased = try await store.purchase(received.productId) else {
            Issue.record("the promoted purchase was not bought"); return
        }
        #expect(await store.isEntitled("premium"))

        // Taken once: a second listener gets only the intent promoted after.
        #expect(try sandbox.run("promote", "market.coins.10").status == 0)
        let next = first(of: store.promotedPurchases())
        let second = try await ServerLinkTests.eventually(.seconds(20)) {
            try listing(sandbox, "promote").allSatisfy { $0["deliveredDate"] != nil }
        }
        if !second { next.cancel() }
        #expect(await next.value?.productId == "market.coins.10")
        #expect(try listing(sandbox, "promote").map { $0["id"] as? String } == ["intent-1", "intent-2"])
        await store.close()
    }

    @Test("message: the app receives billing-issue and price-increase messages once each; a bad reason is exit 2")
    func messagesReceived() async throws {
        let sandbox = try MarketSandbox()
        let bad = try sandbox.run("message", "junk")
        #expect(bad.status == 2 && bad.stderr.contains("billing-issue or price-increase"), "\(bad.stderr)")
        #expect(try sandbox.run("message", "price-increase").status == 0)
        #expect(try sandbox.run("message", "billing-issue").status == 0)

        let store = try await launch(sandbox)
        let stream = store.storeMessages()
        let two = Task {
            var received: [StoreMessage] = []
            for await message in stream {
                received.append(message)
                if received.count == 2 { break }
            }
            return received
        }
        let taken = try await ServerLinkTests.eventually(.seconds(20)) {
            try listing(sandbox, "message").allSatisfy { $0["deliveredDate"] != nil }
        }
        if !taken { two.cancel() }
        #expect(taken, "the engine took both messages from the sandbox")
        let received = await two.value
        #expect(received.map(\.reason) == [.priceIncrease, .billingIssue])
        #expect(received.map(\.id) == ["message-1", "message-2"])
        let shown = try sandbox.run("message")
        #expect(shown.stdout.contains("message-2  billing-issue") && shown.stdout.contains("taken by the app"),
                "\(shown.stdout)")
        await store.close()
    }

    @Test("sheets and message list what the engine's sheet calls recorded: the sheets in order, a message shown")
    func listingsShowTheRecords() throws {
        let sandbox = try MarketSandbox()
        #expect(try sandbox.run("sheets").stdout.contains("No App Store sheets shown"))
        // What the engine over the sandbox backend records for showManageSubscriptions, presentOfferCodeRedeemSheet
        // and display (their scene-taking calls are tested in TallyBackendContractTests).
        try SandboxDirectory(url: sandbox.directory).update { sandbox in
            sandbox.recordSheet(.manageSubscriptions, device: "ipad", subscriptionGroupId: "market.pro")
            sandbox.recordSheet(.offerCodeRedeem)
            let message = sandbox.sendMessage(.billingIssue)
            _ = sandbox.takeMessages()
            _ = try sandbox.displayMessage(message.id)
        }
        let sheets = try listing(sandbox, "sheets")
        #expect(sheets.map { $0["sheet"] as? String } == ["manage-subscriptions", "offer-code-redeem"])
        #expect(sheets.map { $0["subscriptionGroupId"] as? String } == ["market.pro", nil])
        #expect(sheets.first?["device"] as? String == "ipad")
        let text = try sandbox.run("sheets").stdout
        #expect(text.contains("manage-subscriptions  device ipad  group market.pro"), "\(text)")
        #expect(try listing(sandbox, "message").first?["displayedDate"] != nil)
        #expect(try sandbox.run("message").stdout.contains(", shown "))
    }
}
