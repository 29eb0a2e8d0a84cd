import Foundation
import Testing
@testable import TallyCore

@Suite("Offerings: the document, its validation and its answers")
struct OfferingsDocumentTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let market = root.appendingPathComponent("Examples/Market")

    static func marketDocument() throws -> OfferingsDocument {
        try OfferingsDocument(jsonData: Data(contentsOf: market.appendingPathComponent("offerings.json")))
    }

    static func marketCatalog() throws -> Catalog {
        try Catalog(storeKitData: Data(contentsOf: market.appendingPathComponent("Market.storekit")),
                    fileName: "Market.storekit")
    }

    static func read(_ text: String) throws(TallyError) -> OfferingsDocument {
        try OfferingsDocument(jsonData: Data(text.utf8))
    }

    @Test("the Market's document reads, matches its catalog, and its canonical bytes read back to itself")
    func roundTrip() throws {
        let document = try Self.marketDocument()
        #expect(document.offerings.map(\.id) == ["default", "intro"])
        #expect(document.offerings[0].packages.map(\.productId)
                == ["market.pro.monthly", "market.pro.yearly", "market.premium", "market.coins.100"])
        #expect(document.currencies["coins"]?["market.coins.100"] == 100)
        try document.validate(against: Self.marketCatalog(), bundleId: "com.example.market")
        let bytes = document.jsonBytes()
        let again = try OfferingsDocument(jsonData: Data(bytes))
        #expect(again == document)
        #expect(again.jsonBytes() == bytes)
    }

    @Test("metadata keeps numbers exactly and strings with escapes")
    func metadataExact() throws {
        let document = try Self.read(#"{"offerings":[{"id":"o","metadata":{"price":0.1,"t":"a\"b\n\u0001é"},"packages":[]}]}"#)
        let text = String(decoding: document.jsonBytes(), as: UTF8.self)
        #expect(text.contains(#""metadata":{"price":0.1,"t":"a\"b\n\u0001é"}"#))
    }

    @Test("malformed documents are invalidOfferings errors naming the path", arguments: [
        (#"{"offerings":[],"colour":"red"}"#, "colour is not a key here"),
        (#"{"offerings":[{"id":"","packages":[]}]}"#, "offerings[0].id is empty"),
        (#"{"offerings":[{"id":"a","packages":[]},{"id":"a","packages":[]}]}"#, "repeats the offering id a"),
        (#"{"offerings":[{"id":"a","packages":[{"id":"p","productId":"x"},{"id":"p","productId":"y"}]}]}"#,
         "repeats the package id p"),
        (#"{"targeting":[{"id":"r","experiment":{"arms":[{"id":"a","offering":"o","percent":60},{"id":"b","offering":"o","percent":30}]}}]}"#,
         "shares sum to 90%"),
        (#"{"targeting":[{"id":"r","experiment":{"arms":[{"id":"a","offering":"o","percent":33.333},{"id":"b","offering":"o","percent":66.667}]}}]}"#,
         "at most two decimals"),
        (#"{"targeting":[{"id":"r","offering":"o","experiment":{"arms":[]}}]}"#, "exactly one of offering and experiment"),
        (#"{"targeting":[{"id":"r","storefronts":["us"],"offering":"o"}]}"#, "expected an ISO 3166-1 alpha-3 code"),
        (#"{"targeting":[{"id":"r","appVersion":{"min":"3.0","max":"2.9"},"offering":"o"}]}"#, "has max 2.9 below min 3.0"),
        (#"{"targeting":[{"id":"r","appVersion":{"min":"2.x"},"offering":"o"}]}"#, "expected a version"),
        (#"{"offerings":[{"id":"o","metadata":[1],"packages":[]}]}"#, "offerings[0].metadata is an array"),
        (#"[1]"#, "the top level is an array"),
    ])
    func malformed(text: String, fragment: String) throws {
        let error = try #require(throws: TallyError.self) { try Self.read(text) }
        #expect(error.code == .invalidOfferings)
        #expect(error.message.contains(fragment), "\(error.message)")
    }

    @Test("an id longer than 128 bytes is refused; 128 is kept")
    func idBound() throws {
        let long = String(repeating: "é", count: 65)  // 130 bytes
        let error = try #require(throws: TallyError.self) {
            try Self.read(#"{"offerings":[{"id":"\#(long)","packages":[]}]}"#)
        }
        #expect(error.message.contains("130 bytes"))
        let fits = String(repeating: "a", count: 128)
        #expect(try Self.read(#"{"offerings":[{"id":"\#(fits)","packages":[]}]}"#).offerings[0].id == fits)
    }

    @Test("validation names each package whose product the catalog lacks, and every dangling offering id")
    func validation() throws {
        let document = try Self.read("""
            {"current":"gone","offerings":[{"id":"o","packages":[{"id":"p1","productId":"market.premium"},
             {"id":"p2","productId":"market.nope"}]}],"placements":{"settings":"missing"},
             "targeting":[{"id":"r","offering":"absent"}],"entitlements":{"gold":["market.gold"]}}
            """)
        let problems = document.problems(against: try Self.marketCatalog(), bundleId: "b")
        #expect(problems.contains("offerings.o.packages.p2: product market.nope is not in Market.storekit"))
        #expect(problems.contains("current: offering gone is not in offerings"))
        #expect(problems.contains("placements.settings: offering missing is not in offerings"))
        #expect(problems.contains("targeting.r.offering: offering absent is not in offerings"))
        #expect(problems.contains("entitlements.gold: market.gold is not in Market.storekit"))
        #expect(!problems.contains { $0.contains("p1") })
    }

    @Test("an experiment splits 10,000 ids within 1% of its shares, and each id lands in the same arm every time")
    func experimentSplit() throws {
        let document = try Self.read("""
            {"offerings":[{"id":"a","packages":[]},{"id":"b","packages":[]},{"id":"c","packages":[]}],
             "targeting":[{"id":"exp","experiment":{"arms":[{"id":"a","offering":"a","percent":20},
               {"id":"b","offering":"b","percent":30},{"id":"c","offering":"c","percent":50}]}}]}
            """)
        var counts: [String: Int] = [:]
        for index in 0..<10_000 {
            let context = OfferingsContext(appUserId: "user-\(index)@example.com")
            let (first, experiment) = document.choose(placement: nil, context: context)
            #expect(document.choose(placement: nil, context: context).0 == first)
            #expect(experiment?.arm == first)
            counts[first ?? "none", default: 0] += 1
        }
        #expect(abs(counts["a", default: 0] - 2_000) <= 100, "\(counts)")
        #expect(abs(counts["b", default: 0] - 3_000) <= 100, "\(counts)")
        #expect(abs(counts["c", default: 0] - 5_000) <= 100, "\(counts)")
    }

    @Test("two experiments split the same customers independently")
    func independentExperiments() {
        var same = 0
        for index in 0..<10_000 {
            let id = "u\(index)"
            if (ExperimentBucket.bucket(experimentId: "one", appUserId: id) < 5_000)
                == (ExperimentBucket.bucket(experimentId: "two", appUserId: id) < 5_000) { same += 1 }
        }
        #expect(abs(same - 5_000) <= 200, "\(same)")
    }

    @Test("rules by storefront and app version, then placements, then current")
    func targeting() throws {
        let document = try Self.read("""
            {"current":"default","offerings":[{"id":"default","packages":[]},{"id":"us","packages":[]},
             {"id":"new","packages":[]},{"id":"set","packages":[]}],
             "placements":{"settings":"set"},
             "targeting":[{"id":"us","placement":"onboarding","storefronts":["USA","CAN"],"offering":"us"},
                          {"id":"v3","appVersion":{"min":"3","max":"3.9"},"offering":"new"}]}
            """)
        func pick(_ placement: String?, _ storefront: String?, _ version: String?) -> String? {
            document.choose(placement: placement, context: OfferingsContext(storefront: storefront, appVersion: version)).0
        }
        #expect(pick("onboarding", "USA", nil) == "us")
        #expect(pick("onboarding", "FRA", nil) == "default")
        #expect(pick("settings", "USA", nil) == "set")
        #expect(pick("onboarding", nil, nil) == "default")
        #expect(pick(nil, nil, "3.0.1") == "new")
        #expect(pick(nil, nil, "3.10") == "default")
        #expect(pick(nil, nil, "2.9") == "default")
        #expect(pick("settings", nil, "3") == "new")
        #expect(pick("Settings", nil, nil) == "default")  // placements compare as bytes
    }

    @Test("an experiment is skipped for a request without a customer")
    func experimentNeedsCustomer() throws {
        let document = try Self.marketDocument()
        #expect(document.choose(placement: "onboarding", context: OfferingsContext()).0 == "intro")
        #expect(document.choose(placement: "onboarding", context: OfferingsContext()).1 == nil)
        #expect(document.choose(placement: "onboarding", context: OfferingsContext(appUserId: "x")).1?.id
                == "onboarding-test")
    }

    @Test("an answer reads back from its bytes")
    func answerRoundTrip() throws {
        let document = try Self.marketDocument()
        let answer = document.answer(version: 7, placement: "onboarding", context: OfferingsContext(appUserId: "ann"))
        let again = try OfferingsAnswer(jsonData: Data(answer.jsonBytes()))
        #expect(again == answer)
        #expect(again.currentOffering?.id == answer.current)
        let error = try #require(throws: TallyError.self) { try OfferingsAnswer(jsonData: Data(#"{"offerings":[]}"#.utf8)) }
        #expect(error.code == .invalidPayload)
    }

    @Test("app versions compare number by number")
    func versions() throws {
        func v(_ text: String) throws -> AppVersionNumber { try #require(AppVersionNumber(text)) }
        #expect(try v("2") == v("2.0.0"))
        #expect(try v("2.9") < v("2.10"))
        #expect(try v("10") > v("9.99"))
        for bad in ["", "2.", ".1", "1.2.3.4.5", "1.-2", "1e3", "١"] { #expect(AppVersionNumber(bad) == nil, "\(bad)") }
    }
}
