import Testing
@testable import TallyCore

@Suite("Catalog: storefront currencies")
struct CatalogStorefrontTests {
    @Test("every storefront seen in .storekit files maps to its currency", arguments: [
        ("USA", "USD"), ("JPN", "JPY"), ("CHN", "CNY"), ("SGP", "SGD"), ("COL", "COP"), ("LUX", "EUR"),
        ("ESP", "EUR"), ("DEU", "EUR"), ("FIN", "EUR"), ("RUS", "RUB"), ("NOR", "NOK"), ("CHL", "CLP"),
        ("NLD", "EUR"), ("TWN", "TWD"), ("TUR", "TRY"), ("GBR", "GBP"), ("FRA", "EUR"), ("ITA", "EUR"),
        ("KOR", "KRW"), ("CAN", "CAD"), ("AUS", "AUD"), ("MEX", "MXN"), ("BRA", "BRL"), ("IND", "INR"),
    ])
    func currency(storefront: String, currency: String) {
        #expect(Storefronts.currencyCode(for: storefront) == currency)
        #expect(Storefronts.currencyCode(for: storefront.lowercased()) == currency)
    }

    @Test("codes that are not storefronts have no currency")
    func unknown() {
        #expect(Storefronts.currencyCode(for: "US") == nil)
        #expect(Storefronts.currencyCode(for: "") == nil)
        #expect(Storefronts.currencies.values.allSatisfy { $0.count == 3 && $0 == $0.uppercased() })
        #expect(Storefronts.currencies.keys.allSatisfy { $0.count == 3 && $0 == $0.uppercased() })
    }
}
