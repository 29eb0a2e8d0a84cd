/// App Store storefronts: the ISO 3166-1 alpha-3 code a .storekit file names in `_storefront`, and the
/// ISO 4217 currency its prices are in (.storekit prices carry no currency of their own).
public enum Storefronts {
    /// The currency of a storefront (`"JPN"` → `"JPY"`), case-insensitive; nil for a code not in the table.
    public static func currencyCode(for storefront: String) -> String? {
        currencies[storefront.uppercased()]
    }

    /// Storefront → currency for the storefronts whose currency is known with confidence. The euro area
    /// includes Croatia (2023) and Bulgaria (2026).
    public static let currencies: [String: String] = {
        var table: [String: String] = [
            "USA": "USD", "CAN": "CAD", "MEX": "MXN", "BRA": "BRL", "CHL": "CLP", "COL": "COP", "PER": "PEN",
            "GBR": "GBP", "CHE": "CHF", "NOR": "NOK", "SWE": "SEK", "DNK": "DKK", "POL": "PLN", "CZE": "CZK",
            "HUN": "HUF", "ROU": "RON", "TUR": "TRY", "RUS": "RUB", "ISR": "ILS", "SAU": "SAR", "ARE": "AED",
            "QAT": "QAR", "EGY": "EGP", "ZAF": "ZAR", "NGA": "NGN", "TZA": "TZS", "KAZ": "KZT",
            "JPN": "JPY", "CHN": "CNY", "KOR": "KRW", "TWN": "TWD", "HKG": "HKD", "SGP": "SGD", "MYS": "MYR",
            "THA": "THB", "IDN": "IDR", "PHL": "PHP", "VNM": "VND", "IND": "INR", "PAK": "PKR", "AUS": "AUD",
            "NZL": "NZD",
        ]
        let euro = ["AUT", "BEL", "BGR", "CYP", "DEU", "ESP", "EST", "FIN", "FRA", "GRC", "HRV", "IRL", "ITA",
                    "LTU", "LUX", "LVA", "MLT", "NLD", "PRT", "SVK", "SVN"]
        for code in euro { table[code] = "EUR" }
        return table
    }()
}
