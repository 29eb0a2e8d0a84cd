import Foundation
import Testing
@testable import TallyServer

@Suite("tally-server.json: offers.promotional")
struct OfferConfigurationTests {
    static let files = ReconcileLimitConfigurationTests.files
    static let keys = ReconcileLimitConfigurationTests.keys

    @Test("listed offers with their policies are read; none listed signs nothing; ids compare as bytes")
    func read() throws {
        let (none, _) = try ConfigurationTests().load("{\(Self.files),\(Self.keys)}")
        #expect(try none.get().offers.promotional.isEmpty)
        let (listed, _) = try ConfigurationTests().load("""
            {\(Self.files),\(Self.keys),"offers":{"promotional":[{"offerIdentifier":"winback_50","onlyLapsed":true,
            "perCustomer":2},{"offerIdentifier":"caf\\u00e9"}]}}
            """)
        let offers = try listed.get().offers
        #expect(offers.promotionalPolicy("winback_50") == OfferSettings.Promotional(
            offerIdentifier: "winback_50", onlyLapsed: true, perCustomer: 2))
        #expect(offers.promotionalPolicy("caf\u{E9}")?.needsCustomer == false)
        #expect(offers.promotionalPolicy("cafe\u{301}") == nil, "NFD is another id")
        #expect(offers.promotionalPolicy("winback_5") == nil)
    }

    @Test("a missing id, an unknown key or a bad limit is a problem at its JSON path",
          arguments: [#"{}"#, #"{"offerIdentifier":"a","perDay":1}"#, #"{"offerIdentifier":"a","perCustomer":0}"#,
                      #"{"offerIdentifier":""}"#])
    func refused(_ entry: String) throws {
        let (result, _) = try ConfigurationTests().load("""
            {\(Self.files),\(Self.keys),"offers":{"promotional":[\(entry)]}}
            """)
        guard case .failure(let error) = result else {
            Issue.record("the configuration loaded with \(entry)")
            return
        }
        #expect(error.problems.allSatisfy { $0.path.hasPrefix("offers.promotional[0]") }, "\(error.problems)")
    }

    @Test("customerToken (an offer's, introductoryEligibility's) needs customers.tokenKeys; off by default")
    func customerToken() throws {
        let (plain, _) = try ConfigurationTests().load("""
            {\(Self.files),\(Self.keys),"offers":{"promotional":[{"offerIdentifier":"winback_50"}]}}
            """)
        let offers = try plain.get().offers
        #expect(offers.promotionalPolicy("winback_50")?.customerToken == false)
        #expect(!offers.eligibilityByCustomerToken)
        for (entry, path) in [(#""promotional":[{"offerIdentifier":"a","customerToken":true}]"#, "offers.promotional[0].customerToken"),
                              (#""introductoryEligibility":{"customerToken":true}"#, "offers.introductoryEligibility.customerToken"),
                              (#""introductoryEligibility":{"customerToken":1}"#, "offers.introductoryEligibility.customerToken"),
                              (#""introductoryEligibility":{"customer":true}"#, "offers.introductoryEligibility")] {
            let (result, _) = try ConfigurationTests().load("{\(Self.files),\(Self.keys),\"offers\":{\(entry)}}")
            guard case .failure(let error) = result else {
                Issue.record("the configuration loaded with \(entry)")
                continue
            }
            #expect(error.problems.contains { $0.path.hasPrefix(path) }, "\(entry): \(error.problems)")
        }
    }
}
