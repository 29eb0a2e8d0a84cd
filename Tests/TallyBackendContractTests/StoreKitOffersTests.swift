#if os(Linux)
import Foundation
@_spi(Scripting) import StoreKit
import Tally
import TallyCore
import TallyStoreKit
import Testing

extension OneAtATime {
/// Subscription offers through the StoreKit backend over the stand-in: each ``PurchaseOffer`` reaches
/// `purchase(options:)` as StoreKit's option with the app's values, StoreKit's offer refusals come back as the
/// engine's codes, and the offer eligibility the engine answers is StoreKit's.
@Suite("StoreKit offers over the stand-in")
struct StoreKitOffersTests {
    let script = StoreKitScript.shared

    static let pro = "market.pro.monthly"
    static let comeback = TallyCore.SubscriptionOffer(
        id: "pro.comeback", kind: .winBack, paymentMode: .payUpFront,
        period: SubscriptionDuration(value: 3, unit: .month), periodCount: 1, price: Decimal(string: "4.99")!)
    static let lastChance = TallyCore.SubscriptionOffer(
        id: "pro.last-chance", kind: .winBack, paymentMode: .payAsYouGo,
        period: SubscriptionDuration(value: 1, unit: .month), periodCount: 2, price: Decimal(string: "1.99")!)

    /// An app launched on the Market with win-back offers on market.pro.monthly, in StoreKit's answer and in the
    /// engine's catalog (the app is kept for its directory).
    struct WinBackMarket {
        let world: StoreKitWorld
        let app: App
        let store: Store

        init() async throws {
            world = try StoreKitWorld()
            app = App(world)
            var catalog = world.market.catalog
            guard let index = catalog.products.firstIndex(where: { $0.id == pro }) else {
                throw StoreError(.backend, pro)
            }
            catalog.products[index].subscription?.winBackOffers = [comeback, lastChance]
            let products = catalog.products.map(StoreKitWorld.storeKitProduct)
            StoreKitScript.shared.script { $0.products = products }
            store = try await Store(backend: try world.launch(), catalog: catalog,
                                    configuration: world.market.configuration, directory: app.directory,
                                    locale: "en_US")
        }
    }

    static func groupId(_ world: StoreKitWorld) throws -> String {
        guard let group = try world.market.product(pro).subscription?.groupId else {
            throw StoreError(.backend, "\(pro) has no group")
        }
        return group
    }

    // MARK: each offer as StoreKit's purchase option

    @Test("a promotional offer with a V1 signature is .promotionalOffer(offerID:keyID:nonce:signature:timestamp:)")
    func promotionalV1() async throws {
        let world = try StoreKitWorld()
        let store = try await App(world).launch()
        let token = UUID()
        let nonce = UUID()
        let signature = Data([0x30, 0x45, 0x02, 0x21, 0x00, 0xAB])
        let outcome = try await store.purchase(
            Self.pro, appAccountToken: token,
            offer: .promotional(id: "pro.loyalty", signature: .v1(keyId: "KEY123ABCD", nonce: nonce,
                                                                   signature: signature,
                                                                   timestamp: 1_733_300_000_123)))
        guard case .purchased = outcome else { Issue.record("\(outcome)"); return }
        let options = script.calls.purchases.last?.options
        #expect(options == [.appAccountToken(token),
                            .promotionalOffer(offerID: "pro.loyalty", keyID: "KEY123ABCD", nonce: nonce,
                                              signature: signature, timestamp: 1_733_300_000_123)])
        // The Signature form is the same option.
        #expect(options?.contains(.promotionalOffer(offerID: "pro.loyalty", signature: .init(
            keyID: "KEY123ABCD", nonce: nonce, timestamp: 1_733_300_000_123, signature: signature))) == true)
        #expect(options?.contains(.promotionalOffer(offerID: "pro.loyalty", keyID: "KEY123ABCD", nonce: nonce,
                                                    signature: signature, timestamp: 1_733_300_000_124)) == false)
        await store.close()
    }

    @Test("a promotional offer with a compact JWS is promotionalOffer(_:compactJWS:)")
    func promotionalJWS() async throws {
        let world = try StoreKitWorld()
        let store = try await App(world).launch()
        _ = try await store.purchase(Self.pro, offer: .promotional(id: "pro.loyalty", signature: .jws("h.p.s")))
        let options = script.calls.purchases.last?.options ?? []
        #expect(options == Set(StoreKit.Product.PurchaseOption.promotionalOffer("pro.loyalty", compactJWS: "h.p.s")))
        #expect(options.compactMap(\.offerID) == ["pro.loyalty"])
        #expect(options != Set(StoreKit.Product.PurchaseOption.promotionalOffer("pro.loyalty", compactJWS: "h.p.x")))
        await store.close()
    }

    @Test("a win-back offer is .winBackOffer(_:) with the product's StoreKit offer of that id")
    func winBack() async throws {
        let market = try await WinBackMarket()
        let store = market.store
        _ = try await store.purchase(Self.pro, offer: .winBack(id: "pro.last-chance"))
        let product = try #require(script.answers.products.first { $0.id == Self.pro })
        let offer = try #require(product.subscription?.winBackOffers.last)
        #expect(offer.id == "pro.last-chance")
        #expect(offer.type == .winBack)
        let options = script.calls.purchases.last?.options
        #expect(options == [.winBackOffer(offer)])
        #expect(options?.compactMap(\.offerID) == ["pro.last-chance"])
        await store.close()
    }

    @Test("a win-back offer id the product does not have is invalidOfferIdentifier, and StoreKit is not asked")
    func unknownWinBack() async throws {
        let market = try await WinBackMarket()
        let store = market.store
        do {
            _ = try await store.purchase(Self.pro, offer: .winBack(id: "pro.nope"))
            Issue.record("the purchase went through")
        } catch {
            #expect(error.code == .invalidOfferIdentifier)
            #expect(error.message.contains("pro.nope"), "\(error)")
            #expect(error.message.contains("pro.comeback, pro.last-chance"), "\(error)")
        }
        #expect(script.calls.purchases.isEmpty)
        await store.close()
    }

    @Test("an introductory offer eligibility JWS is .introductoryOfferEligibility(compactJWS:)")
    func introductoryEligibility() async throws {
        let world = try StoreKitWorld()
        let store = try await App(world).launch()
        let token = UUID()
        _ = try await store.purchase(Self.pro, appAccountToken: token, offer: .introductoryEligibility(jws: "e.j.s"))
        #expect(script.calls.purchases.last?.options
                == [.appAccountToken(token), .introductoryOfferEligibility(compactJWS: "e.j.s")])
        await store.close()
    }

    // MARK: StoreKit's refusals

    static let refusals: [(StoreKit.Product.PurchaseError, StoreError.Code)] = [
        (.invalidOfferSignature, .invalidOfferSignature),
        (.invalidOfferIdentifier, .invalidOfferIdentifier),
        (.invalidOfferPrice, .invalidOfferPrice),
        (.ineligibleForOffer, .ineligibleForOffer),
        (.missingOfferParameters, .missingOfferParameters),
    ]

    @Test("StoreKit's offer refusal is the engine's code of the same name, thrown by Store.purchase(_:offer:)",
          arguments: refusals)
    func refusal(_ error: StoreKit.Product.PurchaseError, _ code: StoreError.Code) async throws {
        let world = try StoreKitWorld()
        let store = try await App(world).launch()
        script.script { $0.purchaseError = error }
        do {
            _ = try await store.purchase(Self.pro, offer: .promotional(id: "pro.loyalty", signature: .jws("h.p.s")))
            Issue.record("the purchase went through")
        } catch {
            #expect(error.code == code, "\(error)")
            #expect(error.message.contains("purchase of \(Self.pro)"), "\(error)")
        }
        #expect(script.calls.purchases.count == 1)
        // Nothing was sold, so nothing was finished.
        #expect(script.calls.finished.isEmpty)
        await store.close()
    }

    // MARK: eligibility

    @Test("isEligibleForIntroOffer(groupId:) is StoreKit's isEligibleForIntroOffer(for:), not the history's")
    func introEligibility() async throws {
        let world = try StoreKitWorld()
        let store = try await App(world).launch()
        let group = try Self.groupId(world)
        #expect(await store.isEligibleForIntroOffer(groupId: group))
        // The customer never bought in the group (the history says eligible); StoreKit says no.
        script.script { $0.introOfferUsedGroups = [group] }
        #expect(await store.isEligibleForIntroOffer(groupId: group) == false)
        #expect(await store.isEligibleForIntroOffer(groupId: "another-group"))
        await store.close()
    }

    @Test("eligibleWinBackOffers(groupId:) are the renewal info's eligibleWinBackOfferIDs, in StoreKit's order")
    func winBackEligibility() async throws {
        let market = try await WinBackMarket()
        let store = market.store
        let group = try Self.groupId(market.world)
        #expect(await store.eligibleWinBackOffers(groupId: group).isEmpty)
        let status = try market.world.expiredStatus(Self.pro,
                                                    eligibleWinBackOfferIds: ["pro.last-chance", "pro.comeback"])
        script.script { $0.statuses[group] = [status] }
        let offers = await store.eligibleWinBackOffers(groupId: group)
        #expect(offers.map(\.id) == ["pro.last-chance", "pro.comeback"])
        #expect(offers.first == Self.lastChance)
        #expect(script.calls.statusRequests.contains(group))
        await store.close()
    }

    @Test("the backend's offer eligibility: each id once, an unverified renewal info left out and reported")
    func backendEligibility() async throws {
        let world = try StoreKitWorld()
        let group = try Self.groupId(world)
        let backend = StoreKitBackend(catalog: world.market.catalog, verifier: world.verifier)
        let problems = backend.problems()
        let statuses = [
            try world.expiredStatus(Self.pro, eligibleWinBackOfferIds: ["pro.comeback"]),
            try world.expiredStatus("market.plus.monthly", eligibleWinBackOfferIds: ["plus.back", "pro.comeback"]),
            try world.expiredStatus(Self.pro, eligibleWinBackOfferIds: ["pro.forged"], storeKitRefuses: true),
        ]
        script.script { answers in
            answers.introOfferUsedGroups = [group]
            answers.statuses[group] = statuses
        }
        let answer = try await backend.offerEligibility(groupId: group)
        #expect(answer == OfferEligibility(introductoryOffer: false, winBackOfferIds: ["pro.comeback", "plus.back"]))
        var reported: String?
        for await problem in problems { reported = problem; break }
        #expect(reported?.contains("win-back") == true, "\(reported ?? "nothing")")
        script.script { $0.statusError = StoreKitError.networkError(URLError(.notConnectedToInternet)) }
        await #expect(throws: StoreError.self) { try await backend.offerEligibility(groupId: group) }
    }

    @Test("a product's win-back offers reach the engine's product, read as win-back offers")
    func winBackOffersInProducts() async throws {
        let market = try await WinBackMarket()
        let store = market.store
        let answer = try await store.products([Self.pro])
        #expect(answer.products.first?.product.subscription?.winBackOffers == [Self.comeback, Self.lastChance])
        await store.close()
    }
}
}
#endif
