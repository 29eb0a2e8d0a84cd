extension Storefronts {
    /// Apple's numeric storefront id (`storefrontId` on transactions, `"USA"` → `"143441"`), case-insensitive;
    /// nil for a storefront not in the table.
    public static func appleId(for storefront: String) -> String? {
        appleIds[storefront.uppercased()]
    }

    /// Alpha-3 storefront → Apple's numeric storefront id, for common storefronts.
    public static let appleIds: [String: String] = [
        "USA": "143441", "FRA": "143442", "DEU": "143443", "GBR": "143444", "AUT": "143445",
        "BEL": "143446", "FIN": "143447", "GRC": "143448", "IRL": "143449", "ITA": "143450",
        "LUX": "143451", "NLD": "143452", "PRT": "143453", "ESP": "143454", "CAN": "143455",
        "SWE": "143456", "NOR": "143457", "DNK": "143458", "CHE": "143459", "AUS": "143460",
        "NZL": "143461", "JPN": "143462", "HKG": "143463", "SGP": "143464", "CHN": "143465",
        "KOR": "143466", "IND": "143467", "MEX": "143468", "RUS": "143469", "TWN": "143470",
        "BRA": "143503",
    ]
}
