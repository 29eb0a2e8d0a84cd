import Foundation
import Testing
@testable import TallyCore

/// A .storekit document with one consumable priced `price` and the given `settings` members.
private func storeKit(price: String = #""0.99""#, settings: String = "") -> Data {
    Data("""
    {"version": {"major": 4, "minor": 0}, "subscriptionGroups": [], "settings": {\(settings)},
     "products": [{"productID": "shop.coins", "type": "Consumable", "displayPrice": \(price), "localizations": []}]}
    """.utf8)
}

private func catalog(_ data: Data) throws -> Catalog {
    try Catalog(storeKitData: data, fileName: "Shop.storekit")
}

private func rejection(_ data: Data, file: String = "Shop.storekit") throws -> String {
    let error = try #require(throws: TallyError.self) { try Catalog(storeKitData: data, fileName: file) }
    #expect(error.code == .invalidConfiguration)
    #expect(error.message.hasPrefix(file), "\(error.message)")
    return error.message
}

private func configuration(_ json: String) throws -> AppConfiguration {
    try AppConfiguration(jsonData: Data(json.utf8), fileName: "tally.json")
}

@Suite("Catalog: JSON read through Foundation's JSONDecoder")
struct CatalogJSONTests {
    @Test("true, 1, \"1\" and 1.0 stay apart where the readers need a boolean or an integer")
    func scalarsStayApart() throws {
        #expect(try rejection(storeKit(settings: #""_askToBuyEnabled": 1"#))
            == "Shop.storekit: settings._askToBuyEnabled is a number; expected true or false")
        #expect(try rejection(storeKit(settings: #""_askToBuyEnabled": "true""#)).hasSuffix("is a string; expected true or false"))
        #expect(try catalog(storeKit(settings: #""_askToBuyEnabled": true"#)).settings.askToBuyEnabled)
        #expect(try rejection(storeKit(settings: #""_timeRate": true"#)).hasSuffix("_timeRate is a boolean; expected an integer"))
        #expect(try rejection(storeKit(settings: #""_timeRate": "1""#)).hasSuffix("_timeRate is a string; expected an integer"))
        #expect(try rejection(storeKit(settings: #""_timeRate": 1.5"#)).hasSuffix("_timeRate is 1.5; expected an integer"))
        #expect(try catalog(storeKit(settings: #""_timeRate": 1"#)).settings.timeRate == 1)
        #expect(try catalog(storeKit(settings: #""_timeRate": 1.0"#)).settings.timeRate == 1)
        #expect(try catalog(storeKit(settings: #""_timeRate": 1e1"#)).settings.timeRate == 10)
        #expect(try rejection(storeKit(settings: #""_timeRate": 1e30"#)).hasSuffix("expected an integer"))
    }

    @Test("prices as a JSON number, a string, or another type")
    func priceTypes() throws {
        #expect(try catalog(storeKit(price: "1")).products.first?.price == 1)
        #expect(try catalog(storeKit(price: #""1""#)).products.first?.price == 1)
        #expect(try catalog(storeKit(price: "0.1")).products.first?.price == Decimal(string: "0.1"))
        #expect(try rejection(storeKit(price: "true")).hasSuffix("displayPrice is a boolean; expected a price string such as \"0.99\""))
        #expect(try rejection(storeKit(price: "null")).contains("displayPrice is missing"))
    }

    @Test("a 29-digit amount stays exact (Double would keep 17 digits)")
    func exactLongDecimal() throws {
        let amounts = try #require(try configuration("""
        {"bundleId": "b", "currencies": {"coins": {"c": 12345678901234567890.123456789}}}
        """).currencies["coins"])
        #expect(amounts["c"] == Decimal(string: "12345678901234567890.123456789"))
    }

    @Test("a number too large for Decimal is named by its path")
    func numberBeyondDecimal() throws {
        let error = try #require(throws: TallyError.self) {
            try configuration(#"{"bundleId": "b", "currencies": {"coins": {"a": 1, "c": 1e200}}}"#)
        }
        #expect(error.message == "tally.json could not be read: currencies.coins.c is a number beyond what Decimal "
                + "holds (more than 1e127 or less than 1e-127 in size)")
    }

    @Test("tally.json may start with a byte-order mark; a lone surrogate escape is an error naming the file")
    func bomAndLoneSurrogate() throws {
        let bom = Data([0xEF, 0xBB, 0xBF]) + Data(#"{"bundleId": "b\u00e9"}"#.utf8)
        #expect(try AppConfiguration(jsonData: bom, fileName: "tally.json").bundleId == "b\u{E9}")
        let error = try #require(throws: TallyError.self) { try configuration(#"{"bundleId": "\ud800"}"#) }
        #expect(error.message.hasPrefix("tally.json is not valid JSON: "), "\(error.message)")
    }

    @Test("syntax errors are placed by line and column")
    func syntaxPosition() throws {
        let message = try rejection(Data("{\n  \"version\": 4,\n  \"products\": [1 2]\n}".utf8))
        #expect(message.contains("(line 3, column 18)"), "\(message)")
        let located = JSONSyntaxDiagnosis.located("Invalid value around character 5.", in: Data("ab\ncdef".utf8))
        #expect(located == "Invalid value around character 5. (line 2, column 3)")
        #expect(JSONSyntaxDiagnosis.located("Unexpected end of file.", in: Data()) == "Unexpected end of file.")
    }

    @Test("object members come in key order, so the first of several unknown keys is always the same")
    func membersSorted() throws {
        let error = try #require(throws: TallyError.self) {
            try configuration(#"{"zeta": 1, "bundleId": "b", "alpha": 2, "mu": 3}"#)
        }
        #expect(error.message.hasPrefix("tally.json: alpha is not a tally.json key"), "\(error.message)")
    }
}
