import Foundation
import Testing
import TallyCore
import TallyCrypto
@testable import TallySandbox

/// The sandbox's offers beyond what offer_purchases.py drives through the CLI with Apple's creators: offers on a
/// subscription in force (from the next renewal, OFFER_REDEEMED), an upgrade with an offer, Ask to Buy keeping
/// the offer, the `.storekit` file's `isEligible` and `eligibility`.
@Suite("Sandbox offers")
struct SandboxOfferTests {
    static let month = SubscriptionDuration(value: 1, unit: .month)
    static let comeback = SubscriptionOffer(id: "comeback", kind: .promotional, paymentMode: .payAsYouGo, period: month,
                                            periodCount: 2, price: Decimal(string: "1.99")!)
    static let newsletter = SubscriptionOffer(id: "newsletter", kind: .offerCode, paymentMode: .freeTrial, period: month,
                                              referenceName: "newsletter", eligibility: [.new, .expired])
    static let winBack = SubscriptionOffer(id: "winback", kind: .winBack, paymentMode: .freeTrial, period: month,
                                           isEligible: false)

    static func sandbox() -> Sandbox {
        func sub(_ id: String, _ price: Decimal, level: Int) -> CatalogProduct {
            CatalogProduct(id: id, kind: .autoRenewable, price: price, currency: "USD",
                           subscription: .init(groupId: "pro", level: level, period: month,
                                               promotionalOffers: [comeback], winBackOffers: [winBack],
                                               offerCodes: [newsletter]))
        }
        let catalog = Catalog(products: [sub("pro.monthly", Decimal(string: "9.99")!, level: 2),
                                         sub("plus.monthly", Decimal(string: "14.99")!, level: 1)],
                              subscriptionGroups: [SubscriptionGroup(id: "pro", name: "Pro",
                                                                     productIds: ["plus.monthly", "pro.monthly"])])
        return Sandbox(catalog: catalog, configuration: Market.configuration, start: Market.start)
    }

    /// A key registered as `tally sandbox api-key` would, and a V1 signature of `offerId` for `productId` by it.
    struct Signer {
        let key = try! PrivateKey.newP256()
        var keys: SandboxOfferKeys { SandboxOfferKeys(keys: ["KEY1": (key.publicKey!, "issuer")], wallClock: Date()) }

        func offer(_ productId: String, _ offerId: String = "comeback", token: String? = nil) throws -> SandboxOffer {
            let nonce = UUID().uuidString.lowercased()
            let timestamp = Date().millisecondsSince1970
            let payload = OfferSignatureRules.v1Payload(bundleId: "com.example.market", keyId: "KEY1", productId: productId,
                                                        offerIdentifier: offerId, appAccountToken: token, nonce: nonce,
                                                        timestamp: timestamp)
            let signature = try key.signature(digest: ECDSA.sha256(Array(payload.utf8)))
            return .promotional(offerId: offerId, keyId: "KEY1", nonce: nonce, signature: Data(signature), timestamp: timestamp)
        }
    }

    @Test func aPromotionalOfferOnTheSubscriptionInForceAppliesFromItsNextRenewal() throws {
        var sandbox = Self.sandbox()
        let signer = Signer()
        let first = try sandbox.purchase("pro.monthly").requireTransaction()
        let again = try sandbox.purchase("pro.monthly", offer: try signer.offer("pro.monthly"), offerKeys: signer.keys)
            .requireTransaction()
        #expect(again.transactionId == first.transactionId)
        #expect(sandbox.events.last?.kind == .offerRedeemed)
        #expect(sandbox.events.last?.notificationKind?.type == .offerRedeemed)
        #expect(sandbox.events.last?.notificationKind?.subtype == nil)
        #expect(sandbox.renewalInfos().first?.offerType == .promotional)
        #expect(sandbox.renewalInfos().first?.renewalPrice == 1990)
        sandbox.advance(by: try SandboxDuration(parsing: "3M"))
        let chain = sandbox.transactions()
        #expect(chain.map(\.price) == [9990, 1990, 1990, 9990])
        #expect(chain.map(\.offerType) == [nil, .promotional, .promotional, nil])
        #expect(chain.map(\.offerIdentifier) == [nil, "comeback", "comeback", nil])
    }

    @Test func anUpgradeWithAnOfferIsOfferRedeemedUpgradeAtTheOfferPrice() throws {
        var sandbox = Self.sandbox()
        let signer = Signer()
        _ = try sandbox.purchase("pro.monthly").requireTransaction()
        let upgraded = try sandbox.purchase("plus.monthly", offer: try signer.offer("plus.monthly"), offerKeys: signer.keys)
            .requireTransaction()
        #expect(upgraded.productId == "plus.monthly")
        #expect(upgraded.price == 1990 && upgraded.offerType == .promotional)
        let event = try #require(sandbox.events.last)
        #expect(event.notificationKind?.type == .offerRedeemed && event.notificationKind?.subtype == .upgrade)
    }

    @Test func askToBuyKeepsTheCheckedOfferUntilTheApproval() throws {
        var sandbox = Self.sandbox()
        sandbox.set(.askToBuy, enabled: true, account: "default")
        let signer = Signer()
        guard case .pending(let waiting) = sandbox.purchase("pro.monthly", offer: try signer.offer("pro.monthly"),
                                                            offerKeys: signer.keys) else {
            Issue.record("expected a pending purchase")
            return
        }
        let approved = try sandbox.approve(purchaseId: waiting.purchaseId)
        #expect(approved.offerType == .promotional && approved.price == 1990)
    }

    @Test func theStorekitFilesIsEligibleFalseKeepsTheWinBackOfferFromTheTestCustomer() throws {
        var sandbox = Self.sandbox()
        _ = try sandbox.purchase("pro.monthly").requireTransaction()
        try sandbox.setAutoRenew(productId: "pro.monthly", enabled: false)
        sandbox.advance(by: try SandboxDuration(parsing: "40d"))
        #expect(sandbox.state().hasLapsed(groupId: "pro"))
        #expect(sandbox.eligibleWinBackOfferIds(groupId: "pro").isEmpty)
        guard case .failed(let error) = sandbox.purchase("pro.monthly", offer: .winBack(offerId: "winback")) else {
            Issue.record("a win-back offer marked isEligible false was sold")
            return
        }
        #expect(error.code == .ineligibleForOffer)
    }

    @Test func anOfferCodeFollowsItsEligibility() throws {
        var sandbox = Self.sandbox()
        let codes = try sandbox.createOfferCodes(offerId: "newsletter", count: 2, productId: "pro.monthly")
        _ = try sandbox.purchase("pro.monthly", account: "subscriber").requireTransaction()
        #expect(throws: SandboxError.self) { try sandbox.redeemOfferCode(codes[0].code, account: "subscriber") }
        #expect(sandbox.offerCodes[0].redeemedBy == nil)  // a refused redemption does not use the code
        let fresh = try sandbox.redeemOfferCode(codes[0].code.lowercased(), account: "newcomer")
        #expect(fresh.offerType == .offerCode && fresh.offerIdentifier == "newsletter" && fresh.price == 0)
        #expect(sandbox.events.last?.notificationKind?.type == .subscribed)
        do {
            _ = try sandbox.redeemOfferCode(codes[0].code, account: "third")
            Issue.record("a code was redeemed twice")
        } catch {
            #expect(error.code == .ineligibleForOffer)
        }
        #expect(throws: SandboxError.self) { try sandbox.createOfferCodes(offerId: "nosuch", count: 1) }
        // Two products hold the offer: the code must name one.
        #expect(throws: SandboxError.self) { try sandbox.createOfferCodes(offerId: "newsletter", count: 1) }
        #expect(throws: SandboxError.self) { try sandbox.createOfferCodes(offerId: "newsletter", count: 0) }
    }

    @Test func usedNoncesAndCodesSurviveTheDirectory() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("offers-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let directory = SandboxDirectory(url: folder)
        let made = Self.sandbox()
        _ = try directory.create(catalog: made.catalog, configuration: made.configuration, start: Market.start)
        let signer = Signer()
        let offer = try signer.offer("pro.monthly")
        let first = try directory.update(accounts: ["a"]) { sandbox in
            sandbox.purchase("pro.monthly", account: "a", offer: offer, offerKeys: signer.keys)
        }
        #expect((try? first.requireTransaction())?.offerType == .promotional)
        let replay = try directory.update(accounts: ["b"]) { sandbox in
            sandbox.purchase("pro.monthly", account: "b", offer: offer, offerKeys: signer.keys)
        }
        guard case .failed(let error) = replay else {
            Issue.record("a replayed signature bought again after a reload")
            return
        }
        #expect(error.code == .invalidOfferSignature)
        let codes = try directory.update(accounts: []) { try $0.createOfferCodes(offerId: "newsletter", count: 1, productId: "pro.monthly") }
        #expect(try directory.load().offerCodes == codes)
    }
}
