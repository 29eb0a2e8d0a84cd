import Foundation
import Testing
@testable import TallyCore

/// Builds a small .storekit document around the given parts.
private func storeKit(products: String = "", groups: String = "", settings: String = "",
                      version: String = #"{"major": 4, "minor": 0}"#) -> Data {
    Data("""
    {"version": \(version), "products": [\(products)], "subscriptionGroups": [\(groups)], "settings": {\(settings)}}
    """.utf8)
}

private func product(_ id: String = "shop.coins", type: String = "Consumable", price: String = #""0.99""#) -> String {
    #"{"productID": "\#(id)", "type": "\#(type)", "referenceName": "R", "displayPrice": \#(price), "familyShareable": false, "localizations": []}"#
}

private func group(_ subscription: String) -> String {
    #"{"id": "G1", "name": "Group", "localizations": [], "subscriptions": [\#(subscription)]}"#
}

private func subscription(type: String = "RecurringSubscription", period: String = "P1M", extra: String = "") -> String {
    #"{"productID": "shop.pro", "type": "\#(type)", "displayPrice": "4.99", "groupNumber": 1, "subscriptionGroupID": "G1", "recurringSubscriptionPeriod": "\#(period)"\#(extra)}"#
}

private func rejection(_ data: Data, file: String = "Shop.storekit") throws -> String {
    let error = try #require(throws: TallyError.self) { try Catalog(storeKitData: data, fileName: file) }
    #expect(error.code == .invalidConfiguration)
    #expect(error.message.hasPrefix(file), "\(error.message)")
    return error.message
}

@Suite("Catalog: malformed .storekit input is a clear TallyError, tolerated oddities load")
struct CatalogMalformedTests {
    @Test("content that is not JSON is named for what it looks like")
    func notJSON() throws {
        let plist = Data(#"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict/></plist>"#.utf8)
        #expect(try rejection(plist) == "Shop.storekit is not a JSON StoreKit configuration file (it looks like an XML property list)")
        #expect(try rejection(Data([0x00, 0x05, 0x16, 0x07, 0x00, 0x02, 0x00, 0x00])).contains("AppleDouble"))
        #expect(try rejection(Data("book\u{0}\u{0}\u{0}\u{0}mark".utf8)).contains("bookmark"))
        #expect(try rejection(Data()).contains("empty"))
        #expect(try rejection(Data("bplist00".utf8)).contains("binary property list"))
        #expect(try rejection(Data("[1, 2]".utf8)).contains("top level is an array"))
        #expect(try rejection(Data([0x7B, 0xFF, 0xFE, 0x7D])).contains("UTF-8"))
    }

    @Test("truncated JSON names the file and Foundation's reason, at every cut of a real file")
    func truncated() throws {
        let (name, data) = try CatalogVectors.data("08")
        let message = try rejection(data.prefix(500), file: name)
        #expect(message.hasPrefix("\(name) is not valid JSON: ") && message.count > "\(name) is not valid JSON: ".count,
                "\(message)")
        let end = data.lastIndex { $0 != 0x0A && $0 != 0x20 } ?? 0
        for length in stride(from: 0, to: end, by: 97) {
            _ = try rejection(data.prefix(length), file: name)
        }
    }

    @Test("syntax errors give line and column")
    func syntaxPosition() throws {
        let message = try rejection(Data("{\n  \"version\": {\"major\": 4,,}\n}".utf8))
        #expect(message.contains("line 2, column"), "\(message)")
    }

    @Test("a wrong type string names the key and the valid spellings")
    func wrongType() throws {
        let message = try rejection(storeKit(products: product() + "," + product("shop.x", type: "Subscription")))
        #expect(message == "Shop.storekit: products[1].type 'Subscription' is not one of Consumable, NonConsumable, "
                + "NonRenewingSubscription, RecurringSubscription")
        let hinted = try rejection(storeKit(products: product(type: "nonConsumable")))
        #expect(hinted.hasSuffix("did you mean 'NonConsumable'?"))
        let spaced = try rejection(storeKit(groups: group(subscription(type: "Recurring Subscription"))))
        #expect(spaced.contains("subscriptionGroups[0].subscriptions[0].type 'Recurring Subscription'"))
    }

    @Test("kinds in the wrong list are errors")
    func misplacedKinds() throws {
        #expect(try rejection(storeKit(products: product(type: "RecurringSubscription")))
            .contains("products[0].type 'RecurringSubscription' belongs in subscriptionGroups"))
        #expect(try rejection(storeKit(groups: group(subscription(type: "Consumable"))))
            .contains("subscriptionGroups[0].subscriptions[0].type is 'Consumable'"))
    }

    @Test("missing and malformed keys are named by their JSON path")
    func badKeys() throws {
        let noId = #"{"type": "Consumable", "displayPrice": "1"}"#
        #expect(try rejection(storeKit(products: product() + "," + noId)) == "Shop.storekit: products[1].productID is missing")
        #expect(try rejection(storeKit(products: product(price: #""abc""#)))
            .contains("products[0].displayPrice 'abc' is not a price"))
        #expect(try rejection(storeKit(products: product(price: #""-1""#))).contains("products[0].displayPrice '-1'"))
        #expect(try rejection(storeKit(products: product(price: "true"))).contains("products[0].displayPrice is a boolean"))
        #expect(try rejection(storeKit(groups: group(subscription(period: "1 month"))))
            .contains("subscriptionGroups[0].subscriptions[0].recurringSubscriptionPeriod '1 month'"))
        #expect(try rejection(storeKit(settings: #""_askToBuyEnabled": "yes""#))
            == "Shop.storekit: settings._askToBuyEnabled is a string; expected true or false")
        let offer = #", "introductoryOffer": {"paymentMode": "halfPrice", "subscriptionPeriod": "P1W"}"#
        #expect(try rejection(storeKit(groups: group(subscription(extra: offer))))
            .contains("subscriptionGroups[0].subscriptions[0].introductoryOffer.paymentMode 'halfPrice'"))
        let paid = #", "adHocOffers": [{"offerID": "o", "paymentMode": "payUpFront", "subscriptionPeriod": "P1Y"}]"#
        #expect(try rejection(storeKit(groups: group(subscription(extra: paid))))
            .contains("subscriptionGroups[0].subscriptions[0].adHocOffers[0].displayPrice is missing"))
        #expect(try rejection(storeKit(version: #""four""#)).contains("version is a string"))
    }

    @Test("tolerated: bare version, comma and numeric prices, null intro, missing settings, unknown keys")
    func tolerated() throws {
        let extra = #", "introductoryOffer": null, "adHocOffers": [{"offerID": "o", "paymentMode": "free", "subscriptionPeriod": "P3D", "displayPrice": "1.00"}], "somethingNew": {"x": [1]}"#
        let data = storeKit(products: product(price: #""2,99""#) + "," + product("shop.n", type: "NonConsumable", price: "39.99"),
                            groups: group(subscription(extra: extra)), version: "1")
        let catalog = try Catalog(storeKitData: data, fileName: "Shop.storekit")
        #expect(catalog.version == Catalog.Version(major: 1, minor: 0))
        #expect(catalog.product("shop.coins")?.price == Decimal(string: "2.99"))
        #expect(catalog.product("shop.n")?.price == Decimal(string: "39.99"))
        let pro = try #require(catalog.product("shop.pro")?.subscription)
        #expect(pro.introductoryOffer == nil)
        #expect(pro.promotionalOffers.first?.periodCount == 1)
        #expect(pro.promotionalOffers.first?.price == 0)
        #expect(catalog.settings == StoreKitSettings())
        #expect(catalog.warnings.isEmpty)
    }

    @Test("storefronts: case-insensitive; an unknown one reads USD with a warning")
    func storefronts() throws {
        let japan = try Catalog(storeKitData: storeKit(products: product(price: #""480""#), settings: #""_storefront": "jpn""#),
                                fileName: "Shop.storekit")
        #expect(japan.products.first?.currency == "JPY")
        let unknown = try Catalog(storeKitData: storeKit(products: product(), settings: #""_storefront": "XYZ""#),
                                  fileName: "Shop.storekit")
        #expect(unknown.products.first?.currency == "USD")
        #expect(unknown.warnings == ["Shop.storekit: settings._storefront 'XYZ' is not a storefront Tally knows the "
                                     + "currency of; prices are read as USD"])
    }

    @Test("strings: escapes, surrogate pairs and a byte-order mark")
    func strings() throws {
        let localized = #"{"productID": "shop.e", "type": "Consumable", "displayPrice": "1", "localizations": [{"locale": "fr", "displayName": "Caf\u00e9 \ud83d\ude00", "description": "a\"b\\c\n"}]}"#
        let data = Data([0xEF, 0xBB, 0xBF]) + storeKit(products: localized)
        let catalog = try Catalog(storeKitData: data, fileName: "Shop.storekit")
        let localization = try #require(catalog.products.first?.localizations.first)
        #expect(localization.displayName == "Café 😀")
        #expect(localization.description == "a\"b\\c\n")
    }

    @Test("damaged bytes anywhere in a real file give a TallyError or a catalog, never a crash")
    func mutations() throws {
        let (name, data) = try CatalogVectors.data("34")
        let replacements = Array("\"{}[],:0-.\\ an".utf8) + [0xFF, 0x00]
        var failures = 0
        for (step, position) in stride(from: 0, to: data.count, by: 11).enumerated() {
            var damaged = data
            damaged[damaged.startIndex + position] = replacements[step % replacements.count]
            do {
                _ = try Catalog(storeKitData: damaged, fileName: name)
            } catch {
                failures += 1
                #expect(error.message.hasPrefix(name), "\(error.message)")
            }
        }
        #expect(failures > 0)
    }

    @Test("absurd nesting is refused instead of exhausting the stack")
    func deepNesting() throws {
        let deep = Data((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8)
        let message = try rejection(deep)
        #expect(message.hasPrefix("Shop.storekit is not valid JSON: ") && message.contains("nested"), "\(message)")
    }
}
