import Foundation


extension Catalog {
    /// Reads an Xcode StoreKit configuration file (JSON). `fileName` names the file in error messages.
    ///
    /// Throws ``TallyError`` (`invalidConfiguration`) naming the file and the JSON path of the bad key
    /// (`Shop.storekit: products[3].type 'Sub' is not one of …`), and names non-JSON content (XML property
    /// list, AppleDouble, bookmark). Choices made for odd input:
    /// - tolerated, into ``warnings``: an empty `displayPrice` (price 0), a repeated product id (the first
    ///   one is kept), a storefront missing from ``Storefronts/currencies`` (prices read as USD);
    /// - tolerated silently: any major version, a bare `"version": 1`, unknown keys, missing settings keys
    ///   (SKTestSession defaults), `"2,99"` and numeric prices, `introductoryOffer` null/absent/array;
    /// - rejected: a `type` string Xcode does not write (`"Recurring Subscription"`, `"nonConsumable"`),
    ///   because the kind decides how a purchase is credited and guessing it could credit wrongly.
    public init(storeKitData data: Data, fileName: String) throws(TallyError) {
        self = try StoreKitReader.catalog(from: data, fileName: fileName)
    }
}
