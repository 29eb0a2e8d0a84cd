import Foundation
import Testing
@testable import TallyCore

/// Replaces the no-break spaces some locales put between number and symbol with plain spaces.
private func normalized(_ text: String) -> String {
    String(text.unicodeScalars.map { $0 == "\u{00A0}" || $0 == "\u{202F}" ? " " : Character($0) })
}

private func price(_ amount: String, _ currency: String, _ locale: String) -> String {
    let product = CatalogProduct(id: "p", kind: .consumable, price: Decimal(string: amount)!, currency: currency)
    return normalized(product.displayPrice(locale: locale))
}

@Suite("CatalogProduct: display prices and localizations")
struct DisplayPriceTests {
    @Test("prices read the way StoreKit shows them", arguments: [
        ("0.99", "USD", "en_US", "$0.99"),
        ("0.99", "EUR", "de_DE", "0,99 €"),
        ("2.99", "EUR", "fr_FR", "2,99 €"),
        ("0.99", "EUR", "es_ES", "0,99 €"),
        ("120", "JPY", "ja_JP", "¥120"),
        ("1200", "KRW", "ko_KR", "₩1,200"),
        ("7.99", "CNY", "zh_Hans", "¥7.99"),
        ("0.99", "USD", "en_GB", "US$0.99"),
        ("1234.5", "USD", "en_US", "$1,234.50"),
    ])
    func formats(amount: String, currency: String, locale: String, expected: String) {
        // ICU data may use a full-width yen sign in Japanese; StoreKit shows the same amount either way.
        #expect(price(amount, currency, locale).replacingOccurrences(of: "￥", with: "¥") == expected)
    }

    @Test("zero-decimal currencies show no fraction; exact decimals never drift")
    func exactness() {
        #expect(price("10000", "JPY", "ja") .hasSuffix("10,000"))
        #expect(price("0.1", "USD", "en_US") == "$0.10")
        #expect(CatalogProduct.formatPrice(Decimal(string: "19.99")!, currency: "EUR", locale: "de_DE").hasPrefix("19,99"))
    }

    @Test("a catalog product formats in its storefront's currency")
    func fromCatalog() throws {
        let catalog = try CatalogVectors.catalog("30")
        let product = try #require(catalog.products.first)
        #expect(product.currency == "EUR")
        #expect(normalized(product.displayPrice(locale: "de_DE")).hasSuffix(" €"))
    }

    @Test("localization: exact, then the most specific same-language match, then the first")
    func localization() {
        let list = ["en_US", "zh_Hant", "zh_Hans", "ja", "fr_FR"].map {
            CatalogProduct.Localization(locale: $0, displayName: $0, description: "")
        }
        func pick(_ locale: String) -> String? { CatalogProduct.Localization.best(in: list, for: locale)?.displayName }
        #expect(pick("ja") == "ja")
        #expect(pick("ja_JP") == "ja")
        #expect(pick("zh-Hans-CN") == "zh_Hans")
        #expect(pick("zh_CN") == "zh_Hant")
        #expect(pick("FR") == "fr_FR")
        #expect(pick("en_GB") == "en_US")
        #expect(pick("de_DE") == "en_US")
        #expect(CatalogProduct.Localization.best(in: [], for: "en_US") == nil)
    }
}
