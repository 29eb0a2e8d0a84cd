import Foundation


extension CatalogProduct {
    /// The price formatted the way StoreKit shows it for a locale, in the product's currency:
    /// `"$0.99"` (en_US), `"0,99 €"` (de_DE), `"¥120"` (ja_JP), `"₩1,200"` (ko_KR).
    /// `locale` is an identifier such as `en_US`, `ja` or `zh_Hans`. The spacing may be a no-break space.
    public func displayPrice(locale: String) -> String {
        Self.formatPrice(price, currency: currency, locale: locale)
    }

    /// Formats any amount as a price in `currency` (ISO 4217) for `locale`, exactly from the `Decimal`.
    public static func formatPrice(_ price: Decimal, currency: String, locale: String) -> String {
        price.formatted(.currency(code: currency).locale(Locale(identifier: locale)))
    }
}
