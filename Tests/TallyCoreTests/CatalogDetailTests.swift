import Foundation
import Testing
@testable import TallyCore

@Suite("Catalog: what specific .storekit vectors contain")
struct CatalogDetailTests {
    @Test("08 (v2.0): two groups, levels, pay-as-you-go intro over 3 periods, promotional offer ids")
    func storeHelper() throws {
        let catalog = try CatalogVectors.catalog("08")
        #expect(catalog.version == Catalog.Version(major: 2, minor: 0))
        #expect(catalog.subscriptionGroups.map(\.name) == ["VIP", "Standard"])
        #expect(catalog.subscriptionGroups[0].productIds.count == 3)
        let gold = try #require(catalog.product("com.rarcher.subscription.vip.gold"))
        let subscription = try #require(gold.subscription)
        #expect(subscription.groupId == "8126C4BB")
        #expect(subscription.level == 1)
        #expect(subscription.period == SubscriptionDuration(value: 1, unit: .month))
        #expect(gold.price == Decimal(string: "19.99"))
        let intro = try #require(subscription.introductoryOffer)
        #expect(intro.paymentMode == .payAsYouGo)
        #expect(intro.periodCount == 3)
        #expect(intro.price == Decimal(string: "1.99"))
        #expect(intro.kind == .introductory && intro.id == nil)
        #expect(subscription.promotionalOffers.map(\.id) == ["vip.gold.xmassale", "vip.gold.xmassale2"])
        #expect(subscription.promotionalOffers.map(\.paymentMode) == [.payUpFront, .payUpFront])
        #expect(subscription.promotionalOffers[1].price == 10)
        #expect(subscription.offerCodes.map(\.id) == ["Special Winter Offer"])
        #expect(catalog.product("com.rarcher.subscription.vip.bronze")?.subscription?.level == 3)
        #expect(catalog.product("com.rarcher.red")?.subscription?.groupId == "1A156646")
        #expect(catalog.settings.storeKitError == 0)
        #expect(catalog.product("com.rarcher.consumable.plant.installation")?.kind == .consumable)
    }

    @Test("06 (v1.1): Colombian pesos, null reference names, time rate 6")
    func colombia() throws {
        let catalog = try CatalogVectors.catalog("06")
        #expect(catalog.settings.storefront == "COL")
        #expect(catalog.settings.locale == "es_MX")
        #expect(catalog.settings.timeRate == 6)
        #expect(catalog.products.allSatisfy { $0.currency == "COP" && $0.referenceName == nil })
        #expect(catalog.product("tip_4")?.price == 29900)
        #expect(catalog.product("tip_with_badge_1")?.kind == .nonConsumable)
    }

    @Test("31 (v6.3): billing plans, empty introductoryOffers array, code offers, 7 locales, Singapore dollars")
    func joodle() throws {
        let catalog = try CatalogVectors.catalog("31")
        #expect(catalog.version == Catalog.Version(major: 6, minor: 3))
        let monthly = try #require(catalog.product("dev.liyuxuan.joodle.pro.monthly"))
        #expect(monthly.currency == "SGD")
        let subscription = try #require(monthly.subscription)
        #expect(subscription.introductoryOffer == nil)
        #expect(subscription.billingPlans == [SubscriptionBillingPlan(type: .billedUpFront, price: Decimal(string: "3.98")!,
                                                                       commitmentPrice: Decimal(string: "3.98"))])
        #expect(subscription.offerCodes.first?.period == SubscriptionDuration(value: 2, unit: .month))
        #expect(monthly.localizations.count == 7)
        #expect(catalog.subscriptionGroups[0].localizations.count == 7)
        #expect(catalog.settings.storeKitErrors.count == 9)
        #expect(catalog.settings.storeKitErrors.allSatisfy { $0.errorType == nil && !$0.enabled })
    }

    @Test("34 (v5.0): introductoryOffers array beside the object, monthly billing plan, non-renewing product")
    func revenueCat() throws {
        let catalog = try CatalogVectors.catalog("34")
        #expect(catalog.version == Catalog.Version(major: 5, minor: 0))
        let weekly = try #require(catalog.product("com.revenuecat.monthly_4.99.1_week_intro")?.subscription)
        #expect(weekly.introductoryOffer?.paymentMode == .freeTrial)
        #expect(weekly.introductoryOffer?.period == SubscriptionDuration(value: 3, unit: .month))
        #expect(weekly.promotionalOffers.map(\.paymentMode) == [.payUpFront, .payAsYouGo])
        #expect(weekly.promotionalOffers[1].periodCount == 2)
        #expect(weekly.promotionalOffers[1].price == Decimal(string: "20.15"))
        let commitment = try #require(catalog.product("com.revenuecat.annual_with_commitment")?.subscription)
        #expect(commitment.introductoryOffer == nil)
        let monthlyPlan = try #require(commitment.billingPlans.first { $0.type == .monthly })
        #expect(monthlyPlan.price == Decimal(string: "0.5"))
        #expect(monthlyPlan.commitmentPrice == Decimal(string: "6.00"))
        #expect(catalog.product("com.revenuecat.non_renewable")?.kind == .nonRenewing)
        #expect(catalog.products.last?.id == "com.revenuecat.non_renewable")
    }

    @Test("25 and 33: billing grace period, billing retry and interrupted-purchase switches")
    func billingSwitches() throws {
        let anstop = try CatalogVectors.catalog("25").settings
        #expect(anstop.billingGracePeriodEnabled && anstop.renewalBillingIssuesEnabled)
        #expect(!anstop.interruptedPurchasesEnabled && !anstop.askToBuyEnabled)
        #expect(anstop.storefront == "ESP")
        let tempa = try CatalogVectors.catalog("33").settings
        #expect(tempa.interruptedPurchasesEnabled && tempa.renewalBillingIssuesEnabled)
        #expect(!tempa.billingGracePeriodEnabled)
        #expect(tempa.storeKitErrors.first { $0.name == "Refund Request Sheet" }?.errorType == "refund request")
    }

    @Test("15 (v3.0): Ask to Buy and simulated errors with a current selection, in euros")
    func askToBuy() throws {
        let catalog = try CatalogVectors.catalog("15")
        #expect(catalog.settings.askToBuyEnabled)
        #expect(catalog.products.allSatisfy { $0.currency == "EUR" })
        let errors = catalog.settings.storeKitErrors
        #expect(errors.count == 9)
        #expect(errors[0] == StoreKitSettings.SimulatedError(name: "Load Products", enabled: false,
                                                            errorType: "generic", errorIndex: 2))
        #expect(errors[1].errorType == "purchase" && errors[1].errorIndex == 1)
        #expect(errors[2].errorType == nil && errors[2].errorIndex == nil)
    }

    @Test("36: empty displayPrice loads as 0 with a warning naming file, product and key; free win-back offers")
    func emptyPrice() throws {
        let catalog = try CatalogVectors.catalog("36")
        #expect(catalog.product("rc_1099_1m")?.price == 0)
        #expect(catalog.warnings.contains {
            $0.hasPrefix("36-") && $0.contains("subscriptionGroups[0].subscriptions[1].displayPrice") && $0.contains("rc_1099_1m")
        })
        let winBack = try #require(catalog.product("winbackTesting")?.subscription?.winBackOffers.first)
        #expect(winBack.id == "winback.1m0" && winBack.paymentMode == .freeTrial && winBack.price == 0)
        #expect(catalog.settings.timeRate == 1002)
    }

    @Test("04: a repeated product id keeps the first product and warns once")
    func duplicateId() throws {
        let catalog = try CatalogVectors.catalog("04")
        #expect(catalog.products.filter { $0.id == "monthly01" }.count == 1)
        #expect(catalog.warnings.count == 1)
        #expect(catalog.warnings.first?.contains("'monthly01'") == true)
    }

    @Test("time-rate fallbacks: _compatibilityTimeRate as {\"3\": n} (11) and as a bare int (37)")
    func compatibilityTimeRate() throws {
        let apphud = try CatalogVectors.catalog("11").settings
        #expect(apphud.timeRate == 1000 && apphud.compatibilityTimeRate == 5)
        #expect(try CatalogVectors.catalog("37").settings.compatibilityTimeRate == 1)
    }

    @Test("v1.0 files: no identifier, empty settings take SKTestSession defaults")
    func versionOne() throws {
        let catalog = try CatalogVectors.catalog("03")
        #expect(catalog.version == Catalog.Version(major: 1, minor: 0))
        #expect(catalog.identifier == nil)
        #expect(catalog.settings == StoreKitSettings())
        #expect(catalog.products.filter { $0.kind == .autoRenewable }.allSatisfy { $0.familyShareable })
    }

    @Test("10: a synced Japanese file prices in yen and reads Japanese localizations")
    func japan() throws {
        let catalog = try CatalogVectors.catalog("10")
        #expect(catalog.settings.locale == "ja")
        let product = try #require(catalog.products.first)
        #expect(product.currency == "JPY")
        #expect(product.displayPrice(locale: "ja_JP").hasPrefix("¥") || product.displayPrice(locale: "ja_JP").hasPrefix("￥"))
    }

    @Test("24: paid win-back offers over 12 periods; 20: intro offers without numberOfPeriods count 1")
    func winBackAndIntro() throws {
        let leftPocket = try CatalogVectors.catalog("24")
        let winBack = try #require(leftPocket.product("lp_699_1m")?.subscription?.winBackOffers.first)
        #expect(winBack.id == "winbackoffer_399_1m" && winBack.kind == .winBack)
        #expect(winBack.paymentMode == .payAsYouGo && winBack.periodCount == 12 && winBack.price == Decimal(string: "3.99"))
        #expect(winBack.referenceName == "Win Back Offer - Monthly $3.99")
        #expect(winBack.isEligible == true && winBack.eligibility == nil && winBack.isStackable == nil)
        let codes = try #require(leftPocket.product("lp_699_1m")?.subscription?.offerCodes)
        #expect(codes.map(\.id) == ["Affiliates", "Affiliates (1-Month Free)"])
        #expect(codes.map(\.eligibility) == [[.new], [.expired, .new]])
        #expect(codes.map(\.isStackable) == [false, false])
        #expect(codes.allSatisfy { $0.isEligible == nil })
        let yearCodes = try #require(leftPocket.product("lp_7999_1y")?.subscription?.offerCodes)
        #expect(yearCodes.map(\.isStackable) == [false, true])
        #expect(yearCodes.map(\.eligibility) == [[.new, .existing, .expired], [.new, .existing, .expired]])
        #expect(leftPocket.product("lp_299_1w")?.subscription?.introductoryOffer?.period == SubscriptionDuration(value: 3, unit: .day))
        let recorder = try CatalogVectors.catalog("20")
        let yearly = try #require(recorder.product("com.callrecorder.pro.yearly")?.subscription?.introductoryOffer)
        #expect(yearly.paymentMode == .payUpFront && yearly.periodCount == 1 && yearly.price == Decimal(string: "49.99"))
        #expect(recorder.settings.locale == "en_US" && recorder.settings.storefront == "USA")  // neither key is in the file
    }
}
