// The Swift samples of README.md and of the DocC articles (Sources/Tally/Tally.docc), as an app writes them: not
// run, compiled with every build of this target, so a sample that stops matching the API breaks the build. Keep
// each function's body the same as the sample it names.
import Foundation
import Tally
import TallyStoreKit

/// README.md, *In Swift*; Getting started, *Purchase*, *Restore* and *Entitlements and balances*.
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
func readmeInSwiftSample(storeKitData: Data, tallyJSON: Data, appDataURL: URL) async throws {
    let catalog = try Catalog(storeKitData: storeKitData, fileName: "Market.storekit")
    let configuration = try AppConfiguration(jsonData: tallyJSON, fileName: "tally.json")
    let verifier = try AppStoreVerifier(bundleId: "com.example.market", appAppleId: 1234567890,
                                        environments: [.production, .sandbox])
    let store = try await Store(backend: StoreKitBackend(catalog: catalog, verifier: verifier), catalog: catalog,
                                configuration: configuration, directory: appDataURL)
    Task { for await event in store.events() { print(event) } }  // purchased, pending, revoked, renewed, …
    switch try await store.purchase("market.premium") {
    case .purchased(let transaction): print("written to disk, then finished:", transaction.transactionId)
    case .pending(let pending): print("Ask to Buy:", pending.productId)
    case .changeScheduled, .changeCancelled, .cancelled: break
    }
    _ = try await store.restore()                                 // non-consumables and subscriptions
    _ = await store.isEntitled("premium")                         // from signed transactions only
    _ = await store.balance("coins")
    let model = await StoreModel(store: store)                    // SwiftUI; UIKit: store.setDelegate(self)
    _ = model

    // Getting started, *Purchase*: the outcomes with their values.
    switch try await store.purchase("market.plus.monthly") {
    case .purchased(let transaction): _ = transaction
    case .pending(let pending): _ = pending
    case .changeScheduled(let change): _ = (change.productId, change.date)
    case .changeCancelled(let change): _ = change
    case .cancelled: break
    }
    let restored = try await store.restore()
    _ = restored
    _ = try await store.spend(5, of: "coins", id: "level-3-hint")
    _ = await store.canMakePayments
}

/// README.md, *The server* (the app's side).
func readmeServerSample(backend: some StoreBackend, catalog: Catalog, configuration: AppConfiguration,
                        appDataURL: URL) async throws {
    let link = ServerLink(url: URL(string: "https://api.example.com")!, publicKey: "tk_public_…", appUserId: "alice")
    let linked = try await Store(backend: backend, catalog: catalog, configuration: configuration,
                                 directory: appDataURL, serverLink: link)   // posted before finished; one state per customer
    _ = linked
}
