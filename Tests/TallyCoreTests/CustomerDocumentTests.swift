import Foundation
import Testing
@testable import TallyCore

/// The `customer` object the server writes and the engine reads: one type, so what one writes the other reads.
struct CustomerDocumentTests {
    /// A state with every field the object carries set; dates on binary fractions of a second (.5, .25, …), which
    /// survive the object's milliseconds and the parse back exactly.
    static let full = CustomerState(
        date: Date(timeIntervalSince1970: 1_780_000_000),
        entitlements: [
            .init(feature: "pro", productIds: ["pro.monthly", "pro.lifetime"], expiresDate: nil),
            .init(feature: "themes", productIds: ["pro.monthly"], expiresDate: Date(timeIntervalSince1970: 1_782_592_000.125)),
        ],
        nonConsumables: ["pro.lifetime", "theme \"quoted\"\n"],
        subscriptions: [
            .init(groupId: "g1", productId: "pro.monthly", status: .inGracePeriod,
                  expiresDate: Date(timeIntervalSince1970: 1_782_592_000.5),
                  gracePeriodExpiresDate: Date(timeIntervalSince1970: 1_783_000_000.25), willRenew: true,
                  pendingProductId: "pro.yearly", originalTransactionId: "2000000000000001"),
            .init(groupId: "g2", productId: "max.yearly", status: .revoked, expiresDate: nil,
                  gracePeriodExpiresDate: nil, willRenew: false, pendingProductId: nil,
                  originalTransactionId: "2000000000000002"),
        ],
        nonRenewing: [.init(productId: "season.pass", expiresDate: Date(timeIntervalSince1970: 1_781_000_000.75),
                            isActive: true)],
        balances: ["coins": Decimal(110), "gems": Decimal(string: "0.5")!],
        debts: ["tokens": Decimal(string: "12.25")!])

    @Test func whatIsEncodedDecodesToTheSameState() throws {
        let bytes = CustomerDocument.encode(appUserId: "user-1", state: Self.full)
        let document = try CustomerDocument.decode(Data(bytes))
        #expect(document.appUserId == "user-1")
        #expect(document.state(at: Self.full.date) == Self.full)
    }

    @Test func theObjectIsWrittenInTheDocumentedOrder() {
        let state = CustomerState(
            date: Date(timeIntervalSince1970: 0),
            subscriptions: [.init(groupId: "g", productId: "p", status: .subscribed,
                                  expiresDate: Date(timeIntervalSince1970: 1), gracePeriodExpiresDate: nil,
                                  willRenew: true, pendingProductId: nil, originalTransactionId: "1")],
            balances: ["coins": 3])
        let text = String(decoding: CustomerDocument.encode(appUserId: "u", state: state), as: UTF8.self)
        #expect(text == #"{"appUserId":"u","entitlements":[],"nonConsumables":[],"subscriptions":[{"groupId":"g","#
            + #""productId":"p","status":"subscribed","expiresDate":"1970-01-01T00:00:01.000Z","#
            + #""gracePeriodExpiresDate":null,"willRenew":true,"pendingProductId":null,"originalTransactionId":"1"}],"#
            + #""nonRenewing":[],"balances":{"coins":3},"debts":{}}"#)
    }

    @Test func replacingTheNetsEqualsEncodingWithThem() throws {
        let body = CustomerDocument.encode(appUserId: "user-1", state: Self.full)
        var spent = Self.full
        spent.balances = ["coins": 100]
        spent.debts = [:]
        let restated = try #require(CustomerDocument.replacingNets(in: body, balances: spent.balances, debts: spent.debts))
        #expect(restated == CustomerDocument.encode(appUserId: "user-1", state: spent))
        #expect(CustomerDocument.replacingNets(in: Array(#"{"appUserId":"u"}"#.utf8), balances: [:], debts: [:]) == nil)
    }

    @Test func datesWithoutFractionalSecondsAreRead() throws {
        let json = #"{"appUserId":"u","entitlements":[{"feature":"pro","productIds":["p"],"#
            + #""expiresDate":"2026-06-01T00:00:00Z"}],"nonConsumables":[],"subscriptions":[],"nonRenewing":[],"#
            + #""balances":{},"debts":{}}"#
        let state = try CustomerDocument.decode(Data(json.utf8)).state(at: Date(timeIntervalSince1970: 0))
        #expect(state.entitlements.first?.expiresDate == Date(timeIntervalSince1970: 1_780_272_000))
    }
}
