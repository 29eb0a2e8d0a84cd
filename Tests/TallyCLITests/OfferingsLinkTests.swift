import Foundation
import Tally
import TallyCore
import TallySandbox
import TallySandboxBackend
import Testing

/// The engine's offerings against a real `tally serve` seeded with the Market example's `offerings.json`, over
/// the sandbox of the Market example: an offering changed with `curl` reaches a running engine at `refresh()`; an
/// unchanged one is a 304 (the server's access log counts them); offline, a cold start shows the kept copy; a
/// package whose product the App Store does not sell is skipped and reported.
@Suite("Offerings: the engine and tally serve")
struct OfferingsLinkTests {
    /// The Market sandbox and app directories under it.
    final class World {
        let sandbox: MarketSandbox
        let server: LinkedServer

        init(extraProducts: [[String: Any]] = []) throws {
            sandbox = try MarketSandbox()
            server = try LinkedServer(trusting: sandbox.directory, offerings: true, extraProducts: extraProducts,
                                      accessLog: true)
        }

        /// An engine over the sandbox, its data in `apps/<name>`, linked to the server as `user`.
        func store(_ name: String = "app", user: String = "user-1") async throws -> Store {
            let saved = try SandboxDirectory(url: sandbox.directory).load()
            let link = ServerLink(url: server.url, publicKey: server.publicKey, appUserId: user,
                                  retry: RetryPolicy(initialDelay: 60), requestTimeout: 5, appVersion: "2.0")
            return try await Store(backend: SandboxBackend(directory: sandbox.directory, pollInterval: 0.05),
                                   catalog: saved.catalog, configuration: saved.configuration,
                                   directory: sandbox.directory.appendingPathComponent("apps/\(name)"),
                                   locale: "en_US", serverLink: link)
        }

        /// `curl -X PUT …/v1/offerings` with the secret key and `If-Match` on the live version: the document with
        /// `change` applied. Returns curl's output (the answer's status on its last line).
        func putWithCurl(_ change: (inout [String: Any]) -> Void) async throws -> (status: Int, body: String) {
            let (status, live) = try await server.request("GET", "/v1/offerings/document")
            guard status == 200, let version = live["version"] as? Int,
                  var document = live["document"] as? [String: Any] else {
                throw CLITestError("GET /v1/offerings/document answered \(status): \(live)")
            }
            change(&document)
            let file = sandbox.directory.appendingPathComponent("offerings-\(UUID().uuidString).json")
            try JSONSerialization.data(withJSONObject: document).write(to: file)
            let output = try TallyProcess.run(
                executable: URL(fileURLWithPath: "/usr/bin/env"),
                ["curl", "-s", "-X", "PUT", "-H", "Authorization: Bearer \(server.secretKey)",
                 "-H", "If-Match: \"\(version)\"", "-H", "Content-Type: application/json",
                 "--data-binary", "@\(file.path)", "-w", "\n%{http_code}", server.url.absoluteString + "/v1/offerings"])
            let lines = output.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
        }
    }

    @Test func anOfferingChangedWithCurlReachesARunningEngineAtRefresh() async throws {
        let world = try World()
        let store = try await world.store()
        let events = store.events()
        let first = await store.offerings()
        #expect(first.source == .server)
        #expect(first.version == 1)
        #expect(first.current?.id == "default")
        #expect(first.current?.packages.map(\.id) == ["monthly", "yearly", "lifetime", "coins"])
        let monthly = try #require(first.current?.packages.first?.product)
        #expect(monthly.id == "market.pro.monthly")
        #expect(monthly.displayPrice.contains("$"), "a localized price from the sandbox: \(monthly.displayPrice)")
        #expect(first.skippedPackages.isEmpty)

        let put = try await world.putWithCurl { $0["current"] = "intro" }
        #expect(put.status == 200, "\(put.body)")
        #expect(await store.cachedOfferings().version == 1, "nothing moves before the refresh")
        await store.refresh()
        let shown = await store.cachedOfferings()
        #expect(shown.source == .server)
        #expect(shown.version == 2)
        #expect(shown.current?.id == "intro")
        #expect(shown.current?.packages.map(\.product.id) == ["market.pro.monthly"])
        var changed: StoreOfferings?
        for await event in events {
            if case .offeringsChanged(let offerings) = event { changed = offerings; break }
        }
        #expect(changed?.version == 2)
        await store.close()
    }

    @Test func anUnchangedOfferingIsA304OnItsETag() async throws {
        let world = try World()
        let store = try await world.store()
        _ = await store.offerings(placement: "settings")
        _ = await store.offerings(placement: "settings")
        await store.refresh()
        // The server logs a request once it answered it: wait for the three lines, then count.
        let logged = await ServerLinkTests.eventually {
            world.server.accessLines("GET /v1/offerings").count == 3
        }
        #expect(logged, "\(world.server.accessLines("GET"))")
        #expect(world.server.accessLines("GET /v1/offerings 200").count == 1, "\(world.server.accessLines("GET"))")
        #expect(world.server.accessLines("GET /v1/offerings 304").count == 2, "\(world.server.accessLines("GET"))")
        #expect(await store.cachedOfferings(placement: "settings").source == .server)
        await store.close()
    }

    @Test func offlineAColdStartShowsTheKeptOffering() async throws {
        let world = try World()
        let first = try await world.store()
        _ = try await world.putWithCurl { $0["current"] = "intro" }
        #expect(await first.offerings().current?.id == "intro")
        await first.close()
        world.server.stop()

        let cold = try await world.store()
        let kept = await cold.cachedOfferings()
        #expect(kept.source == .cache)
        #expect(kept.version == 2)
        #expect(kept.current?.id == "intro")
        let offline = await cold.offerings()
        #expect(offline.source == .cache)
        #expect(offline.current?.packages.map(\.product.id) == ["market.pro.monthly"])
        #expect(offline.problem != nil)
        await cold.close()

        // With the server back, the same engine data gets the server's answer again (a 304 on the kept ETag).
        try world.server.start()
        let back = try await world.store()
        #expect(await back.offerings().source == .server)
        #expect(await ServerLinkTests.eventually { world.server.accessLines("GET /v1/offerings 304").count == 1 },
                "the kept ETag sent at the first request of this launch: \(world.server.accessLines("GET"))")
        await back.close()
    }

    @Test func aPackageOfAProductTheAppStoreDoesNotSellIsSkippedAndReported() async throws {
        // The server's catalog knows market.coins.500 (so the PUT is valid); the sandbox App Store does not sell it.
        let coins500: [String: Any] = [
            "displayPrice": "19.99", "familyShareable": false, "internalID": "6E1A0099", "productID": "market.coins.500",
            "referenceName": "Coins 500", "type": "Consumable",
            "localizations": [["description": "500 coins", "displayName": "500 Coins", "locale": "en_US"]]]
        let world = try World(extraProducts: [coins500])
        let put = try await world.putWithCurl { document in
            var offerings = document["offerings"] as? [[String: Any]] ?? []
            var packages = offerings[0]["packages"] as? [[String: Any]] ?? []
            packages.append(["id": "chest", "productId": "market.coins.500"])
            offerings[0]["packages"] = packages
            document["offerings"] = offerings
        }
        #expect(put.status == 200, "\(put.body)")
        let store = try await world.store()
        let answer = await store.offerings()
        #expect(answer.source == .server)
        #expect(answer.current?.packages.map(\.id) == ["monthly", "yearly", "lifetime", "coins"])
        #expect(answer.skippedPackages == [SkippedPackage(offeringId: "default", packageId: "chest",
                                                          productId: "market.coins.500")])
        #expect(await store.diagnostics.contains { $0.kind == .offeringPackageSkipped
            && $0.message.contains("market.coins.500") })
        await store.close()
    }
}
