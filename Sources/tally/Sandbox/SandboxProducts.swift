import Foundation
import TallyCore
import TallySandbox

/// `tally sandbox products [--ids a,b,c] [--locale en_US] [--json]`
enum SandboxProducts {
    static func run(_ words: [String]) throws -> Int32 {
        let arguments = try Arguments.sandbox(words, allowed: ["ids", "locale"])
        let context = SandboxContext(arguments)
        let response = try context.answer(accounts: []) { sandbox throws(SandboxError) -> (ProductResponse, String) in
            let ids = arguments.value("ids").map(Self.splitIds)
                ?? sandbox.catalog.products.map(\.id)
            return (try sandbox.products(ids: ids), arguments.value("locale") ?? sandbox.settings.locale)
        }
        let (products, locale) = response
        let rows = products.products.map { ProductRow($0, locale: locale) }
        if context.json {
            try context.printJSON(ProductList(products: rows, invalidIdentifiers: products.invalidIdentifiers))
        } else {
            for row in rows {
                let period = row.subscription.map { " / \($0.period)" } ?? ""
                print("\(row.id)  \(row.kind.rawValue)  \(row.displayPrice)\(period)  \(row.displayName)")
            }
            for id in products.invalidIdentifiers { print("\(id)  invalid product identifier") }
        }
        return ExitCode.ok
    }

    static func splitIds(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    struct ProductList: Encodable {
        var products: [ProductRow]
        var invalidIdentifiers: [String]
    }
}

/// One product as `products --json` prints it.
struct ProductRow: Encodable {
    struct Subscription: Encodable {
        var groupId: String
        var level: Int
        var period: String
        var introductoryOffer: SubscriptionOffer?
        var promotionalOfferIds: [String]
        var winBackOfferIds: [String]
    }

    var id: String
    var kind: ProductKind
    var displayName: String
    var description: String
    var price: Decimal
    var currency: String
    var displayPrice: String
    var familyShareable: Bool
    var subscription: Subscription?

    init(_ product: CatalogProduct, locale: String) {
        let localization = product.localization(for: locale)
        id = product.id
        kind = product.kind
        displayName = localization?.displayName ?? product.referenceName ?? product.id
        description = localization?.description ?? ""
        price = product.price
        currency = product.currency
        displayPrice = product.displayPrice(locale: locale)
        familyShareable = product.familyShareable
        subscription = product.subscription.map {
            Subscription(groupId: $0.groupId, level: $0.level, period: $0.period.iso8601,
                         introductoryOffer: $0.introductoryOffer,
                         promotionalOfferIds: $0.promotionalOffers.compactMap(\.id),
                         winBackOfferIds: $0.winBackOffers.compactMap(\.id))
        }
    }
}
