#if os(Linux)
import Foundation
@_spi(Scripting) import StoreKit
import Synchronization
import Tally
import TallyCore
import TallyStoreKit
import TallyVerify
import Testing

extension OneAtATime {
/// What only the StoreKit backend does, checked against the stand-in's recorded calls and scripted answers.
@Suite("StoreKit backend over the stand-in")
struct StoreKitBackendTests {
    let script = StoreKitScript.shared

    @Test("a purchase passes .appAccountToken and .quantity (only when not 1) to purchase(options:)")
    func purchaseOptions() async throws {
        let world = try StoreKitWorld()
        let store = try await App(world).launch()
        let token = UUID()
        _ = try await store.purchase("market.coins.10", quantity: 3, appAccountToken: token)
        _ = try await store.purchase("market.premium")
        let calls = script.calls.purchases
        #expect(calls.map(\.productID) == ["market.coins.10", "market.premium"])
        #expect(calls.first?.options == [.quantity(3), .appAccountToken(token)])
        #expect(calls.last?.options == [])
        #expect(await store.balance("coins") == 30)
        await store.close()
    }

    @Test("finish() is called only after the engine's durable write")
    func finishAfterTheWrite() async throws {
        let world = try StoreKitWorld()
        let app = App(world)
        let seen = Mutex<[String]>([])
        let script = script
        let store = try await Store(
            backend: try world.launch(), catalog: world.market.catalog, configuration: world.market.configuration,
            directory: app.directory, locale: "en_US",
            deliveryObserver: { step, id in
                let finished = script.calls.finished.map(String.init).contains(id)
                seen.withLock { $0.append("\(step.rawValue):\(finished)") }
            })
        _ = try await store.purchase("market.premium")
        let steps = seen.withLock { $0 }
        #expect(steps.contains("written:false"), "\(steps)")
        #expect(steps.contains("finished:true"), "\(steps)")
        #expect(script.calls.finished.count == 1)
        await store.close()
    }

    @Test("the shown price is StoreKit's displayPrice, not the engine's formatting")
    func displayPriceFromStoreKit() async throws {
        let world = try StoreKitWorld()
        script.script { answers in
            answers.products = [StoreKit.Product(id: "market.coins.10", type: .consumable, displayName: "10 Coins",
                                                 price: 0.99, currencyCode: "EUR", displayPrice: "0,99 € (StoreKit)")]
        }
        let store = try await App(world).launch()
        let answer = try await store.products(["market.coins.10"])
        #expect(answer.products.first?.displayPrice == "0,99 € (StoreKit)")
        #expect(answer.products.first?.product.currency == "EUR")
        #expect(answer.products.first?.displayName == "10 Coins")
        await store.close()
    }

    @Test("an offer of a payment mode this version does not know is left out and reported, never guessed")
    func anUnknownPaymentModeLeavesTheOfferOut() async throws {
        let world = try StoreKitWorld()
        let period = StoreKit.Product.SubscriptionPeriod(value: 1, unit: .month)
        let offer = StoreKit.Product.SubscriptionOffer(
            id: nil, type: .introductory, price: 0, displayPrice: "$0.00",
            paymentMode: StoreKit.Product.SubscriptionOffer.PaymentMode(rawValue: "payLater"), period: period,
            periodCount: 1)
        script.script { answers in
            answers.products = [StoreKit.Product(
                id: "market.pro.monthly", type: .autoRenewable, displayName: "Pro", price: 4.99, currencyCode: "USD",
                displayPrice: "$4.99",
                subscription: StoreKit.Product.SubscriptionInfo(subscriptionGroupID: "pro", subscriptionPeriod: period,
                                                                introductoryOffer: offer, groupLevel: 1))]
        }
        let store = try await App(world).launch()
        let answer = try await store.products(["market.pro.monthly"])
        let product = try #require(answer.products.first?.product)
        #expect(product.subscription?.period.unit == .month)
        #expect(product.subscription?.introductoryOffer == nil, "an unknown payment mode was read as another")
        #expect(await eventually {
            await store.diagnostics.contains { $0.kind.rawValue == "backendProblem" && $0.message.contains("payLater") }
        })
        await store.close()
    }

    @Test("intro-offer eligibility: StoreKit's isEligibleForIntroOffer false wins over an empty local history")
    func introOfferEligibility() async throws {
        let world = try StoreKitWorld()
        let store = try await App(world).launch()
        #expect(try await store.products(["market.pro.monthly"]).products.first?.isEligibleForIntroOffer == true)
        await store.close()

        let group = try #require(try world.market.product("market.pro.monthly").subscription?.groupId)
        script.script { $0.introOfferUsedGroups = [group] }
        let other = try await App(world).launch()
        #expect(try await other.products(["market.pro.monthly"]).products.first?.isEligibleForIntroOffer == false)
        await other.close()
    }

    @Test("a purchase after loading products asks StoreKit for no product again")
    func purchaseUsesTheLoadedProduct() async throws {
        let world = try StoreKitWorld()
        let store = try await App(world).launch()
        _ = try await store.products(["market.premium"])
        _ = try await store.purchase("market.premium")
        #expect(script.calls.productRequests == [["market.premium"]])
        await store.close()
    }

    @Test("AppStoreVerifier accepts the environments it is given, tried in order, and no other")
    func verifierEnvironments() async throws {
        let world = try StoreKitWorld()
        let signed = try world.loose("market.premium")
        let jws = StoreKit.VerificationResult<StoreKit.Transaction>.verified(signed).jwsRepresentation
        let root = Data(try #require(world.root).der)
        let productionOnly = try AppStoreVerifier(bundleId: world.market.configuration.bundleId, appAppleId: 1,
                                                  environments: [.production], rootCertificates: [root])
        #expect(throws: StoreError.self) { try productionOnly.verifiedTransaction(jws) }
        let appStoreBuild = try AppStoreVerifier(bundleId: world.market.configuration.bundleId, appAppleId: 1,
                                                 environments: [.production, .sandbox], rootCertificates: [root])
        #expect(try appStoreBuild.verifiedTransaction(jws).transactionId == String(signed.id))
        let otherApp = try AppStoreVerifier(bundleId: "com.example.other", environments: [.sandbox],
                                            rootCertificates: [root])
        #expect(throws: StoreError.self) { try otherApp.verifiedTransaction(jws) }
        #expect(throws: StoreError.self) { try AppStoreVerifier(bundleId: "com.example.market", environments: []) }
    }

    @Test("Transaction.updates is listened to from the store's creation")
    func updatesFromTheStart() async throws {
        let world = try StoreKitWorld()
        #expect(script.updateListeners == 0)
        let store = try await App(world).launch()
        #expect(script.updateListeners == 1)
        // Pushed right after creation, before any other call: delivered.
        script.pushUpdate(.verified(try world.loose("market.coins.10")))
        #expect(await eventually { await store.balance("coins") == 10 })
        await store.close()
    }

    @Test("an update StoreKit could not verify, or whose JWS the verifier refuses, is never credited nor finished")
    func unverifiedUpdates() async throws {
        let world = try StoreKitWorld()
        let store = try await App(world).launch()
        let unverified = try world.loose("market.coins.100")
        let forged = try world.loose("market.coins.100", forged: true)
        script.pushUpdate(.unverified(unverified, .invalidSignature))
        script.pushUpdate(.verified(forged))
        script.pushUpdate(.verified(try world.loose("market.coins.10")))
        #expect(await eventually { await store.balance("coins") == 10 })
        #expect(await store.balance("coins") == 10)
        #expect(!script.calls.finished.contains(unverified.id))
        #expect(!script.calls.finished.contains(forged.id))
        #expect(await store.diagnostics.contains { $0.message.contains(String(forged.id)) })
        await store.close()
    }

    @Test("an unfinished transaction whose payload does not decode is skipped and reported; the others are delivered")
    func anUndecodableUnfinishedTransactionLosesNotTheRest() async throws {
        let world = try StoreKitWorld()
        let bad = try world.undecodable("market.coins.100")
        let good = try world.loose("market.coins.10")
        script.script { $0.unfinished = [.verified(bad), .verified(good)] }
        let store = try await App(world).launch()
        #expect(await store.balance("coins") == 10, "one bad payload lost the whole batch")
        #expect(await eventually {
            await store.diagnostics.contains { $0.kind.rawValue == "backendProblem" && $0.message.contains(String(bad.id)) }
        })
        #expect(!script.calls.finished.contains(bad.id))
        await store.close()
    }

    @Test("an update whose payload does not decode is reported, not dropped silently")
    func anUndecodableUpdateIsReported() async throws {
        let world = try StoreKitWorld()
        let store = try await App(world).launch()
        let bad = try world.undecodable("market.coins.100")
        script.pushUpdate(.verified(bad))
        script.pushUpdate(.verified(try world.loose("market.coins.10")))
        #expect(await eventually { await store.balance("coins") == 10 })
        #expect(await eventually {
            await store.diagnostics.contains { $0.kind.rawValue == "backendProblem" && $0.message.contains(String(bad.id)) }
        })
        await store.close()
    }

    @Test("restore calls AppStore.sync() before reading currentEntitlements; a cancelled sign-in is .cancelled")
    func restoreSyncs() async throws {
        let world = try StoreKitWorld()
        let store = try await App(world).launch()
        _ = try await store.restore()
        #expect(script.calls.syncs == 1)
        script.script { $0.syncError = StoreKitError.userCancelled }
        await #expect { try await store.restore() } throws: { ($0 as? StoreError)?.code == .cancelled }
        script.script { $0.syncError = StoreKitError.networkError(URLError(.notConnectedToInternet)) }
        await #expect { try await store.restore() } throws: { ($0 as? StoreError)?.code == .networkError }
        await store.close()
    }

    /// Each error `purchase(options:)` can throw, and what the engine reports (the table in docs/engine.md).
    static let purchaseErrors: [(String, any Error & Sendable, StoreError.Code?)] = [
        ("PurchaseError.invalidQuantity", StoreKit.Product.PurchaseError.invalidQuantity, .invalidQuantity),
        ("PurchaseError.productUnavailable", StoreKit.Product.PurchaseError.productUnavailable, .productUnavailable),
        ("PurchaseError.purchaseNotAllowed", StoreKit.Product.PurchaseError.purchaseNotAllowed, .purchaseNotAllowed),
        ("PurchaseError.ineligibleForOffer", StoreKit.Product.PurchaseError.ineligibleForOffer, .ineligibleForOffer),
        ("PurchaseError.invalidOfferIdentifier", StoreKit.Product.PurchaseError.invalidOfferIdentifier, .invalidOfferIdentifier),
        ("PurchaseError.invalidOfferPrice", StoreKit.Product.PurchaseError.invalidOfferPrice, .invalidOfferPrice),
        ("PurchaseError.invalidOfferSignature", StoreKit.Product.PurchaseError.invalidOfferSignature, .invalidOfferSignature),
        ("PurchaseError.missingOfferParameters", StoreKit.Product.PurchaseError.missingOfferParameters, .missingOfferParameters),
        ("StoreKitError.userCancelled", StoreKitError.userCancelled, nil),
        ("StoreKitError.networkError", StoreKitError.networkError(URLError(.timedOut)), .networkError),
        ("StoreKitError.notAvailableInStorefront", StoreKitError.notAvailableInStorefront, .productUnavailable),
        ("StoreKitError.notEntitled", StoreKitError.notEntitled, .backend),
        ("StoreKitError.systemError", StoreKitError.systemError(CocoaError(.fileReadNoPermission)), .backend),
        ("StoreKitError.unknown", StoreKitError.unknown, .backend),
        ("StoreKitError.unsupported", StoreKitError.unsupported, .backend),
    ]

    @Test("StoreKit's purchase errors map one by one (nil: the cancelled outcome)", arguments: StoreKitBackendTests.purchaseErrors.indices)
    func purchaseErrorMapping(index: Int) async throws {
        let (name, error, expected) = Self.purchaseErrors[index]
        let world = try StoreKitWorld()
        script.script { $0.purchase = { _, _ in throw error } }
        let store = try await App(world).launch()
        do {
            let outcome = try await store.purchase("market.premium")
            #expect(expected == nil && outcome == .cancelled, "\(name) answered \(outcome)")
        } catch {
            #expect(error.code == expected, "\(name) became \(error.code): \(error.message)")
        }
        #expect(await store.history.transactions.isEmpty)
        await store.close()
    }

    @Test("products: a network error loading them is the engine's networkError")
    func productsNetworkError() async throws {
        let world = try StoreKitWorld()
        script.script { $0.productsError = StoreKitError.networkError(URLError(.notConnectedToInternet)) }
        let store = try await App(world).launch()
        await #expect { try await store.products(["market.premium"]) } throws: {
            ($0 as? StoreError)?.code == .networkError
        }
        await store.close()
    }
}
}
#endif
