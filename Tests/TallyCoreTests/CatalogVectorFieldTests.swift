import Foundation
import Testing
@testable import TallyCore

/// Cross-checks every field Tally maps against the raw JSON, read independently with JSONSerialization.
@Suite("Catalog: fields of every loadable vector match the raw JSON")
struct CatalogVectorFieldTests {
    static let loadable = CatalogVectors.fileNames.filter { CatalogVectors.rejected[$0] == nil }

    private static func decimal(_ text: Any?) -> Decimal? {
        guard let text = text as? String else { return nil }
        return text.isEmpty ? 0 : Decimal(string: text.replacingOccurrences(of: ",", with: "."))
    }

    @Test("price, kind, Family Sharing, localizations, level, period, offers", arguments: loadable)
    func fields(fileName: String) throws {
        let data = try Data(contentsOf: CatalogVectors.directory.appendingPathComponent(fileName))
        let catalog = try Catalog(storeKitData: data, fileName: fileName)
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let kinds = ["Consumable": ProductKind.consumable, "NonConsumable": .nonConsumable,
                     "NonRenewingSubscription": .nonRenewing, "RecurringSubscription": .autoRenewable]
        var raw = (root["products"] as? [[String: Any]] ?? []) + (root["nonRenewingSubscriptions"] as? [[String: Any]] ?? [])
        for group in root["subscriptionGroups"] as? [[String: Any]] ?? [] {
            raw += group["subscriptions"] as? [[String: Any]] ?? []
        }
        var checked: Set<String> = []
        for entry in raw {
            let id = try #require(entry["productID"] as? String)
            guard checked.insert(id).inserted else { continue }
            let product = try #require(catalog.product(id))
            #expect(product.price == Self.decimal(entry["displayPrice"]), "\(id)")
            #expect(product.kind == kinds[entry["type"] as? String ?? ""], "\(id)")
            #expect(product.familyShareable == (entry["familyShareable"] as? Bool ?? false), "\(id)")
            #expect(product.referenceName == entry["referenceName"] as? String, "\(id)")
            let locales = (entry["localizations"] as? [[String: Any]] ?? []).compactMap { $0["locale"] as? String }
            #expect(product.localizations.map(\.locale) == locales, "\(id)")
            guard let subscription = product.subscription else { continue }
            #expect(subscription.level == entry["groupNumber"] as? Int, "\(id)")
            #expect(subscription.period.iso8601 == entry["recurringSubscriptionPeriod"] as? String, "\(id)")
            #expect(subscription.promotionalOffers.map(\.id) == (entry["adHocOffers"] as? [[String: Any]] ?? []).map { $0["offerID"] as? String })
            #expect(subscription.winBackOffers.count == (entry["winbackOffers"] as? [[String: Any]] ?? []).count)
            #expect(subscription.offerCodes.count == (entry["codeOffers"] as? [[String: Any]] ?? []).count)
            #expect(subscription.billingPlans.count == (entry["billingPlans"] as? [[String: Any]] ?? []).count)
            let intro = (entry["introductoryOffers"] as? [[String: Any]])?.first ?? entry["introductoryOffer"] as? [String: Any]
            #expect(subscription.introductoryOffer?.period.iso8601 == intro?["subscriptionPeriod"] as? String, "\(id)")
            #expect(subscription.introductoryOffer?.periodCount == intro.map { $0["numberOfPeriods"] as? Int ?? 1 }, "\(id)")
            if let intro, intro["paymentMode"] as? String != "free" {
                #expect(subscription.introductoryOffer?.price == Self.decimal(intro["displayPrice"]), "\(id)")
            }
        }
        #expect(checked.count == catalog.products.count)
    }
}
