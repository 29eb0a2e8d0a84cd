import Foundation
import Testing
@testable import Tally
import TallyTesting
import TallyCore

/// `store.offerings(placement:)` against a scripted server: the server's answer with localized products, the
/// `ETag` sent back (304), the kept copy offline and at cold start, the bundled catalog as the last resort,
/// unknown products skipped and reported, a change shown at `refresh()`.
@Suite("Store offerings: server, kept copy, bundled catalog", .timeLimit(.minutes(1)))
struct StoreOfferingsTests {
    static func launch(_ harness: Harness, _ server: URL, user: String = "user-1") async throws -> Store {
        try await Store(backend: harness.backend, catalog: Shop.catalog, configuration: Shop.configuration,
                        directory: harness.directory, locale: "en_US",
                        serverLink: ServerLink(url: server, publicKey: "pk_test", appUserId: user,
                                               retry: RetryPolicy(initialDelay: 60), requestTimeout: 5,
                                               appVersion: "2.1"))
    }

    @Test func theServersAnswerComesWithLocalizedProductsAndTheRequestNamesCustomerStorefrontVersion() async throws {
        let server = try ScriptedOfferingsServer()
        server.set(ShopOfferings.answer(version: 3, current: "intro", placement: "onboarding"))
        let store = try await Self.launch(Harness(), server.url, user: "caf\u{e9}+1")
        let answer = await store.offerings(placement: "onboarding")
        #expect(answer.source == .server)
        #expect(answer.version == 3)
        #expect(answer.placement == "onboarding")
        #expect(answer.current?.id == "intro")
        #expect(answer.current?.packages.map(\.product.id) == [Shop.liteMonthly])
        let lifetime = try #require(answer.offering(id: "default")?.packages.last)
        #expect(lifetime.id == "lifetime")
        #expect(lifetime.product.displayName == "Premium")
        #expect(lifetime.product.displayPrice == "$9.99")
        #expect(answer.offering(id: "default")?.metadata["title"] == .string("Go Pro"))
        #expect(answer.skippedPackages.isEmpty)
        #expect(answer.problem == nil)
        let request = try #require(server.requests.last)
        #expect(request.queryValues("placement") == ["onboarding"])
        #expect(request.queryValues("appUserId") == ["caf\u{e9}+1"], "percent-encoded, '+' kept")
        #expect(request.queryValues("storefront") == ["FRA"], "the backend's storefront")
        #expect(request.queryValues("appVersion") == ["2.1"])
        #expect(request.header("Authorization") == "Bearer pk_test")
        #expect(request.header("If-None-Match") == nil, "nothing kept yet")
        await store.close()
    }

    @Test func anUnknownProductIsSkippedAndReportedOnceNotThrown() async throws {
        let server = try ScriptedOfferingsServer()
        server.set(ShopOfferings.answer(version: 1, extra: [OfferingPackage(id: "ghost", productId: Shop.unknown)]))
        let store = try await Self.launch(Harness(), server.url)
        let answer = await store.offerings()
        #expect(answer.current?.packages.map(\.id) == ["monthly", "lifetime"])
        #expect(answer.skippedPackages == [SkippedPackage(offeringId: "default", packageId: "ghost",
                                                          productId: Shop.unknown)])
        _ = await store.offerings()
        let reports = await store.diagnostics.filter { $0.kind == .offeringPackageSkipped }
        #expect(reports.count == 1)
        #expect(reports.first?.message.contains(Shop.unknown) == true)
        await store.close()
    }

    @Test func theETagIsSentBackAnUnchangedAnswerIs304AndAChangeShowsAtRefresh() async throws {
        let server = try ScriptedOfferingsServer()
        server.set(ShopOfferings.answer(version: 1))
        let store = try await Self.launch(Harness(), server.url)
        let events = store.events()
        let first = await store.offerings()
        let second = await store.offerings()
        #expect(server.counts == (ok: 1, notModified: 1))
        #expect(server.requests.first?.header("If-None-Match") == nil)
        #expect(server.requests.last?.header("If-None-Match")?.hasPrefix("\"") == true, "the ETag, sent back as received")
        #expect(second.source == .server, "a 304 is the server's word that the kept copy is current")
        #expect(second.all == first.all && second.version == 1)

        server.set(ShopOfferings.answer(version: 2, current: "intro"))
        await store.refresh()
        #expect(server.counts == (ok: 2, notModified: 1))
        let shown = await store.cachedOfferings()
        #expect(shown.version == 2)
        #expect(shown.current?.id == "intro")
        let seen = try await collect(events) { if case .offeringsChanged = $0 { true } else { false } }
        guard case .offeringsChanged(let changed)? = seen.last else { Issue.record("no offeringsChanged"); return }
        #expect(changed.version == 2)
        await store.refresh()
        #expect(server.counts == (ok: 2, notModified: 2), "refresh asks again; unchanged is a 304")
        await store.close()
    }

    @Test func offlineTheKeptAnswerIsShownAlsoAtColdStartAndSaysWhy() async throws {
        let server = try ScriptedOfferingsServer()
        server.set(ShopOfferings.answer(version: 7, current: "intro"))
        let harness = Harness()
        let first = try await Self.launch(harness, server.url)
        #expect(await first.offerings().source == .server)
        await first.close()
        server.stop()

        let cold = try await Self.launch(harness, server.url)
        let kept = await cold.cachedOfferings()
        #expect(kept.source == .cache, "before any request")
        #expect(kept.version == 7 && kept.current?.id == "intro")
        let offline = await cold.offerings()
        #expect(offline.source == .cache)
        #expect(offline.version == 7)
        #expect(offline.current?.packages.map(\.product.id) == [Shop.liteMonthly])
        guard case .unreachable? = offline.problem else {
            Issue.record("expected unreachable, got \(String(describing: offline.problem))"); return
        }
        #expect(await cold.diagnostics.contains { $0.kind == .offeringsUnavailable })
        await cold.close()

        // Another customer on the same device is never shown this customer's answer.
        let other = try await Self.launch(harness, server.url, user: "user-2")
        #expect(await other.offerings().source == .bundled)
        await other.close()
    }

    @Test func afterASwitchThePreviousCustomersAnswerIsNotShown() async throws {
        let server = try ScriptedOfferingsServer()
        server.set(ShopOfferings.answer(version: 5, current: "intro"))
        let store = try await Self.launch(Harness(), server.url)
        #expect(await store.offerings().version == 5)
        _ = try await store.switchCustomer(to: "user-2")
        #expect(await store.cachedOfferings().source == .bundled, "user-1's answer is not user-2's")
        let asked = await store.offerings()
        #expect(asked.source == .server && asked.version == 5)
        #expect(server.requests.last?.queryValues("appUserId") == ["user-2"])
        #expect(server.requests.last?.header("If-None-Match") == nil, "user-1's ETag is not sent for user-2")
        await store.close()
    }

    @Test func withNeitherServerNorKeptCopyTheBundledCatalogIsOneOffering() async throws {
        let server = try ScriptedOfferingsServer()
        server.stop()
        let store = try await Self.launch(Harness(), server.url)
        let answer = await store.offerings(placement: "settings")
        #expect(answer.source == .bundled)
        #expect(answer.version == nil)
        #expect(answer.current?.id == StoreOffering.bundledId)
        #expect(answer.all.count == 1)
        #expect(answer.current?.packages.map(\.product.id) == Shop.catalog.products.map(\.id))
        #expect(answer.problem != nil)
        await store.close()

        let unlinked = try await Harness().launch()
        let local = await unlinked.offerings()
        #expect(local.source == .bundled && local.problem == nil)
        await unlinked.close()
    }

    @Test func aHostileAnswerIsNotBelievedAndABadETagIsNotSentBack() async throws {
        let server = try ScriptedOfferingsServer()
        server.set(ShopOfferings.answer(version: 1))
        server.script.withLock { $0.etag = "\"bad tag\u{7f}\"" }
        let store = try await Self.launch(Harness(), server.url)
        #expect(await store.offerings().source == .server)
        _ = await store.offerings()
        #expect(server.requests.last?.header("If-None-Match") == nil, "an ETag with a blank or a control byte is not kept")

        server.script.withLock { $0.failure = (200, "{\"version\": \"three\"}") }
        let undecodable = await store.offerings()
        #expect(undecodable.source == .cache, "the kept answer, not the unreadable one")
        guard case .serverError(200, "undecodable", _)? = undecodable.problem else {
            Issue.record("expected undecodable, got \(String(describing: undecodable.problem))"); return
        }
        server.script.withLock { $0.failure = (503, "{\"error\":{\"code\":\"unavailable\",\"message\":\"later\"}}") }
        guard case .serverError(503, "unavailable", _)? = await store.offerings().problem else {
            Issue.record("expected the 503"); return
        }
        await store.close()
    }

    @Test func anUnreadableCacheFileIsReportedAndReplaced() async throws {
        let server = try ScriptedOfferingsServer()
        server.set(ShopOfferings.answer(version: 4))
        let harness = Harness()
        try FileManager.default.createDirectory(at: harness.directory, withIntermediateDirectories: true)
        let file = harness.directory.appendingPathComponent(OfferingsCache.fileName)
        try Data("{not json".utf8).write(to: file)
        let store = try await Self.launch(harness, server.url)
        #expect(await store.offerings().version == 4)
        #expect(await store.diagnostics.contains { $0.kind == .offeringsCacheUnusable })
        let (cache, problem) = OfferingsCache.read(in: harness.directory)
        #expect(problem == nil)
        #expect(cache.entries.count == 1)
        await store.close()
    }

    @Test func keptAnswersAreNamedByServerCustomerAndPlacementAsBytesAndBounded() {
        var cache = OfferingsCache()
        func entry(_ user: String, _ placement: String?) -> OfferingsCache.Entry {
            OfferingsCache.Entry(serverURL: "http://a", appUserId: user, placement: placement, etag: nil,
                                 savedAt: Date(), body: user)
        }
        cache.set(entry("caf\u{e9}", nil))
        cache.set(entry("cafe\u{301}", nil))
        cache.set(entry("caf\u{e9}", ""))
        let server = URL(string: "http://a")!
        #expect(cache.entry(server: server, appUserId: "caf\u{e9}", placement: nil)?.placement == nil)
        #expect(cache.entry(server: server, appUserId: "cafe\u{301}", placement: nil)?.body == "cafe\u{301}")
        #expect(cache.entry(server: server, appUserId: "caf\u{e9}", placement: "")?.placement == "")
        #expect(cache.entry(server: URL(string: "http://b")!, appUserId: "caf\u{e9}", placement: nil) == nil)
        for index in 0..<50 { cache.set(entry("u\(index)", nil)) }
        #expect(cache.entries.count == OfferingsCache.maximumEntries)
        #expect(cache.entry(server: server, appUserId: "caf\u{e9}", placement: nil) == nil, "the oldest dropped")
    }

    @Test("the model shows the kept copy, then the server's, and a change at reload")
    @MainActor
    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)  // StoreModel
    func theModelExposesTheCurrentOffering() async throws {
        let server = try ScriptedOfferingsServer()
        server.set(ShopOfferings.answer(version: 1))
        let model = await StoreModel(store: try await Self.launch(Harness(), server.url))
        #expect(model.currentOffering == nil, "nothing before loadOfferings")
        await model.loadOfferings()
        #expect(model.currentOffering?.id == "default")
        #expect(model.offerings?.source == .server)
        server.set(ShopOfferings.answer(version: 2, current: "intro"))
        await model.reload()
        #expect(model.offerings?.version == 2)
        #expect(model.currentOffering?.id == "intro")
        await model.store.close()
    }
}
