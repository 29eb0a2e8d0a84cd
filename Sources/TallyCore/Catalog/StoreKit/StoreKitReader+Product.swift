import Foundation


extension StoreKitReader {
    /// Xcode's `type` strings and the kinds they mean.
    static let productKinds: [String: ProductKind] = [
        "Consumable": .consumable, "NonConsumable": .nonConsumable,
        "NonRenewingSubscription": .nonRenewing, "RecurringSubscription": .autoRenewable,
    ]
    /// The valid `type` strings, for messages.
    static let productKindList = "Consumable, NonConsumable, NonRenewingSubscription, RecurringSubscription"

    /// A product of `products[]` or `nonRenewingSubscriptions[]` (named by `list`).
    mutating func product(_ entry: JSONCursor, in list: String) throws(TallyError) -> CatalogProduct {
        let id = try productID(entry)
        let (kind, type) = try kind(entry)
        guard kind != .autoRenewable else {
            throw type.failure("'RecurringSubscription' belongs in subscriptionGroups[].subscriptions[]; "
                               + "\(list) holds Consumable, NonConsumable and NonRenewingSubscription products")
        }
        return try product(entry, id: id, kind: kind)
    }

    /// The `productID`, which must be a non-empty string.
    func productID(_ entry: JSONCursor) throws(TallyError) -> String {
        let cursor = try entry.required("productID")
        let id = try cursor.string()
        guard !id.trimmingCharacters(in: .whitespaces).isEmpty else { throw cursor.failure("is empty") }
        return id
    }

    /// The kind named by `type`, and the `type` key for messages.
    func kind(_ entry: JSONCursor) throws(TallyError) -> (ProductKind, JSONCursor) {
        let cursor = try entry.required("type")
        let text = try cursor.string()
        guard let kind = Self.productKinds[text] else {
            let squashed = text.filter { !$0.isWhitespace }.lowercased()
            let hint = Self.productKinds.keys.first { $0.lowercased() == squashed }.map { "; did you mean '\($0)'?" }
            throw cursor.failure("'\(text)' is not one of \(Self.productKindList)\(hint ?? "")")
        }
        return (kind, cursor)
    }

    /// The keys every kind of product has: reference name, price, Family Sharing, localizations.
    mutating func product(_ entry: JSONCursor, id: String, kind: ProductKind) throws(TallyError) -> CatalogProduct {
        let referenceName = try entry.optional("referenceName")?.string()
        guard let price = try price(entry, "displayPrice", of: id) else {
            throw TallyError(.invalidConfiguration, "\(file): \(entry.path(of: "displayPrice")) is missing")
        }
        let familyShareable = try entry.optional("familyShareable")?.bool() ?? false
        let localizations = try localizations(entry.optional("localizations"))
        return CatalogProduct(id: id, kind: kind, referenceName: referenceName, price: price, currency: currency,
                       familyShareable: familyShareable, localizations: localizations)
    }

    /// `[{description, displayName, locale}]`; empty strings are allowed, `locale` is required.
    func localizations(_ list: JSONCursor?) throws(TallyError) -> [CatalogProduct.Localization] {
        var result: [CatalogProduct.Localization] = []
        for entry in try list?.elements() ?? [] {
            result.append(CatalogProduct.Localization(locale: try entry.required("locale").string(),
                                               displayName: try entry.optional("displayName")?.string() ?? "",
                                               description: try entry.optional("description")?.string() ?? ""))
        }
        return result
    }

    /// An ISO 8601 period string such as `P1M`.
    func period(_ cursor: JSONCursor) throws(TallyError) -> SubscriptionDuration {
        let text = try cursor.string()
        do {
            return try SubscriptionDuration(iso8601: text)
        } catch {
            throw cursor.failure("'\(text)' is not an ISO 8601 period such as P3D, P1W, P1M or P1Y")
        }
    }
}
