import Foundation
import Testing
@testable import TallyCore

private func configuration(_ json: String) throws -> AppConfiguration {
    try AppConfiguration(jsonData: Data(json.utf8), fileName: "tally.json")
}

private func rejection(_ json: String) throws -> String {
    let error = try #require(throws: TallyError.self) { try configuration(json) }
    #expect(error.code == .invalidConfiguration)
    #expect(error.message.hasPrefix("tally.json"), "\(error.message)")
    return error.message
}

@Suite("AppConfiguration: reading tally.json")
struct AppConfigurationJSONTests {
    static let good = """
    {
      "bundleId": "com.example.market",
      "entitlements": {"premium": ["market.premium", "market.pro.monthly"]},
      "currencies": {"coins": {"market.coins.10": 10, "market.coins.tenth": 0.1, "market.coins.fifth": 0.2}},
      "nonRenewingDurations": {"market.season": "P3M"}
    }
    """

    @Test("a good file reads every section")
    func good() throws {
        let config = try configuration(Self.good)
        #expect(config.bundleId == "com.example.market")
        #expect(config.entitlements == ["premium": ["market.premium", "market.pro.monthly"]])
        #expect(config.currencies["coins"]?["market.coins.10"] == 10)
        #expect(config.nonRenewingDurations == ["market.season": SubscriptionDuration(value: 3, unit: .month)])
    }

    @Test("amounts are exact decimals read from the number text")
    func exactDecimals() throws {
        let coins = try #require(try configuration(Self.good).currencies["coins"])
        let sum = try #require(coins["market.coins.tenth"]) + (try #require(coins["market.coins.fifth"]))
        #expect(sum == Decimal(string: "0.3"))
        let precise = try configuration(#"{"bundleId": "b", "currencies": {"gems": {"g": 12345678901234567.89}}}"#)
        #expect(precise.currencies["gems"]?["g"] == Decimal(string: "12345678901234567.89"))
        #expect(try configuration(#"{"bundleId": "b", "currencies": {"gems": {"g": 2.5e1}}}"#).currencies["gems"]?["g"] == 25)
    }

    @Test("amounts must be numbers above zero")
    func badAmounts() throws {
        #expect(try rejection(#"{"bundleId": "b", "currencies": {"coins": {"c": -5}}}"#)
            == "tally.json: currencies.coins.c is -5; an amount credited must be above 0")
        #expect(try rejection(#"{"bundleId": "b", "currencies": {"coins": {"c": 0}}}"#).contains("currencies.coins.c is 0"))
        #expect(try rejection(#"{"bundleId": "b", "currencies": {"coins": {"c": "10"}}}"#)
            .contains("currencies.coins.c is a string; expected a number"))
        #expect(try rejection(#"{"bundleId": "b", "currencies": {"coins": {}}}"#).contains("currencies.coins is empty"))
    }

    @Test("a period that is not ISO 8601 names the key")
    func badPeriod() throws {
        #expect(try rejection(#"{"bundleId": "b", "nonRenewingDurations": {"season": "3 months"}}"#)
            == "tally.json: nonRenewingDurations.season '3 months' is not an ISO 8601 period such as P3D, P1W, P1M or P1Y")
    }

    @Test("structure errors: unknown key, missing bundleId, empty lists, bad JSON")
    func structure() throws {
        #expect(try rejection(#"{"bundleId": "b", "currency": {}}"#)
            .contains("currency is not a tally.json key; the keys are bundleId, entitlements, currencies, nonRenewingDurations"))
        #expect(try rejection(#"{"entitlements": {}}"#) == "tally.json: bundleId is missing")
        #expect(try rejection(#"{"bundleId": " "}"#).contains("bundleId is empty"))
        #expect(try rejection(#"{"bundleId": "b", "entitlements": {"pro": []}}"#).contains("entitlements.pro is empty"))
        #expect(try rejection(#"{"bundleId": "b", "entitlements": {"pro": "p"}}"#).contains("entitlements.pro is a string"))
        #expect(try rejection(#"{"bundleId": "b""#).contains("not valid JSON"))
        #expect(try rejection("[]").contains("top level is an array"))
    }
}
