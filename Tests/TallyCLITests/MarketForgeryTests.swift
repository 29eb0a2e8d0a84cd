import Foundation
import Testing
@testable import Tally
import TallyCore

/// The market's customer file, edited as an attacker would (a line added with its CRC-32 recomputed), grants
/// nothing: `tally market status` ignores and reports the line, and `tally market restore` does not bring it back.
@Suite("tally market: a forged customer journal line")
struct MarketForgeryTests {
    /// Copies the journal's first transaction line into forged ones: `edit` changes each copy; the signed form is
    /// kept as it was (the attacker cannot sign), and the CRC-32 is recomputed, as anyone can.
    static func forge(_ journal: URL, _ edits: [(inout StoreTransaction) -> Void]) throws -> Int {
        let data = try Data(contentsOf: journal)
        let lines = data.split(separator: 0x0A)
        var found: (StoreTransaction, String?)?
        for line in lines {
            if case .transaction(let transaction, let jws)? = JournalLine.decode(line[...], with: JSONDecoder()) {
                found = (transaction, jws)
                break
            }
        }
        let original = try #require(found, "no transaction line in \(journal.path)")
        #expect(original.1 != nil, "the market writes each transaction with its signed form")
        var forged = data
        for edit in edits {
            var transaction = original.0
            edit(&transaction)
            forged.append(try JournalLine.encode(.transaction(transaction, jwsRepresentation: original.1),
                                                 with: JSONEncoder()))
        }
        try forged.write(to: journal)
        return lines.count + 1
    }

    @Test func aForgedLineIsIgnoredReportedAndNotRestored() throws {
        let store = try MarketSandbox()
        #expect(try store.market("buy", "market.coins.100").status == 0)
        let journal = store.directory.appendingPathComponent("apps/default/default/customer.journal")
        let firstForged = try Self.forge(journal, [
            { $0.transactionId = "9000000001"; $0.quantity = 50 },
            { $0.transactionId = "9000000002"; $0.productId = "market.premium"; $0.type = .nonConsumable },
            { $0.quantity = 50 },
        ])

        let status = try store.market("status")
        #expect(status.status == 0)
        #expect(status.stdout.contains("COINS: 100"), "\(status.stdout)")
        #expect(!status.stdout.contains("5100"))
        #expect(status.stdout.contains("Premium: LOCKED"), "\(status.stdout)")
        #expect(status.stderr.contains("warning: unverifiedTransaction"), "\(status.stderr)")
        #expect(status.stderr.contains("line \(firstForged) (transaction 9000000001, market.coins.100) carries the "
            + "signed form of transaction "), "\(status.stderr)")
        #expect(status.stderr.contains("line \(firstForged + 1) (transaction 9000000002, market.premium) carries"))
        #expect(status.stderr.contains("line \(firstForged + 2) (transaction ") &&
                status.stderr.contains(", market.coins.100) differs from its signed form"))
        let copies = try FileManager.default.contentsOfDirectory(atPath: journal.deletingLastPathComponent().path)
        #expect(copies.contains { $0.hasPrefix("customer.journal.unverified-") })

        let restored = try store.market("restore")
        #expect(restored.status == 0, "\(restored.stderr)")
        let json = try store.marketStatus()
        #expect((json["balances"] as? [String: Any])?["coins"] as? Int == 100)
        #expect(Features.of(json)?.contains("premium") != true, "\(json)")
        let again = try store.market("status")
        #expect(again.stdout.contains("Premium: LOCKED"))
        #expect(!again.stderr.contains("unverifiedTransaction"), "reported once; the forged lines are gone")
    }
}
