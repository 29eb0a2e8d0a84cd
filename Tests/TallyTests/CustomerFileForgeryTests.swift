import Foundation
import Testing
@testable import Tally
import TallyCore

/// The customer file grants only what the store signed: a line or snapshot entry added, altered or moved by hand
/// (with a correct CRC-32, as anyone can compute) is ignored, reported and rebuilt from the store.
@Suite("Customer file: forged transactions")
struct CustomerFileForgeryTests {
    static let coins = StoreTransaction(transactionId: "5000", productId: Shop.coins, purchaseDate: Shop.start,
                                   quantity: 500, type: .consumable)

    /// Appends a line as an attacker would: the entry's JSON behind its recomputed CRC-32.
    static func append(_ entry: JournalEntry, to path: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: try JournalLine.encode(entry, with: JSONEncoder()))
        try handle.close()
    }

    /// A journal line as Tally wrote it before it kept signed forms: `{"transaction":{"_0":{…}}}`.
    static func legacyLine(_ transaction: StoreTransaction) throws -> Data {
        let json = Data(#"{"transaction":{"_0":"#.utf8) + (try JSONEncoder().encode(transaction)) + Data("}}".utf8)
        let checksum = String(CRC32.checksum(json), radix: 16)
        return Data((String(repeating: "0", count: 8 - checksum.count) + checksum + " ").utf8) + json + Data([0x0A])
    }

    @Test("a line without a signed form is ignored and reported by line; the journal is copied aside")
    func unsignedLine() throws {
        let directory = Shop.directory()
        let path = try CustomerFileTests.journal([CustomerFileTests.signed("1")], in: directory)
        try Self.append(.transaction(Self.coins, jwsRepresentation: nil), to: path)

        let (record, diagnostics) = try CustomerFileTests.open(directory)
        #expect(record.transactions.ids == ["1"])
        #expect(diagnostics.map(\.kind) == [.unverifiedTransaction])
        let message = try #require(diagnostics.first?.message)
        #expect(message.contains("line 2 (transaction 5000, \(Shop.coins)) has no signed form"), "\(message)")
        #expect(record.needsRestore)
        let copy = try #require(diagnostics.first?.movedTo)
        #expect(copy.lastPathComponent.hasPrefix("customer.journal.unverified-"))
        #expect(try String(contentsOf: copy, encoding: .utf8).contains("\"5000\""))
    }

    @Test("a line whose signed form does not verify, or signs another transaction or another copy, grants nothing")
    func badSignedForms() throws {
        let directory = Shop.directory()
        let premium = CustomerFileTests.transaction("1")
        let premiumJWS = CustomerFileTests.signatures.sign(premium)
        let path = try CustomerFileTests.journal([.transaction(premium, jwsRepresentation: premiumJWS)], in: directory)
        // Premium's valid signed form on a coin purchase; premium's signed form on an altered premium (refund
        // date removed is not possible here, so a different purchase date); a signed form the store never issued.
        try Self.append(.transaction(Self.coins, jwsRepresentation: premiumJWS), to: path)
        var altered = premium
        altered.quantity = 5
        try Self.append(.transaction(altered, jwsRepresentation: premiumJWS), to: path)
        try Self.append(.transaction(Self.coins, jwsRepresentation: "eyJhbGciOiJFUzI1NiJ9.e30.AAAA"), to: path)

        let (record, diagnostics) = try CustomerFileTests.open(directory)
        #expect(record.transactions.all == [premium])
        #expect(record.transactions.jwsRepresentation(of: "1") == premiumJWS)
        let message = try #require(diagnostics.first { $0.kind == .unverifiedTransaction }?.message)
        #expect(message.contains("line 2 (transaction 5000, \(Shop.coins)) carries the signed form of transaction 1"))
        #expect(message.contains("line 3 (transaction 1, \(Shop.premium)) differs from its signed form"))
        #expect(message.contains("line 4 (transaction 5000, \(Shop.coins)) has a signed form that does not verify"))
        #expect(record.needsRestore)
    }

    @Test("a transaction added to customer.json by hand is ignored, reported and the snapshot copied aside")
    func forgedSnapshot() throws {
        let directory = Shop.directory()
        _ = try CustomerFileTests.journal([CustomerFileTests.signed("1")], in: directory)
        _ = try CustomerFileTests.open(directory)  // folds the journal into customer.json
        let snapshot = directory.appendingPathComponent(CustomerFile.snapshotName)
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: snapshot)) as? [String: Any])
        var transactions = try #require(json["transactions"] as? [Any])
        transactions.append(try JSONSerialization.jsonObject(with: JSONEncoder().encode(Self.coins)))
        json["transactions"] = transactions
        try JSONSerialization.data(withJSONObject: json).write(to: snapshot)

        let (record, diagnostics) = try CustomerFileTests.open(directory)
        #expect(record.transactions.ids == ["1"])
        #expect(diagnostics.map(\.kind) == [.unverifiedTransaction])
        #expect(diagnostics.first?.message.contains("transaction 5000 (\(Shop.coins)) has no signed form") == true)
        #expect(diagnostics.first?.movedTo?.lastPathComponent.hasPrefix("customer.json.unverified-") == true)
        #expect(record.needsRestore)
        // The forged copy is gone from the rewritten snapshot: the next open finds nothing to report.
        #expect(try CustomerFileTests.open(directory).1.isEmpty)
    }

    @Test("a journal written before signed forms decodes, and its transactions are untrusted")
    func legacyJournalLine() throws {
        let directory = Shop.directory()
        let path = try CustomerFileTests.journal([], in: directory)
        try FileHandle(forWritingTo: URL(fileURLWithPath: path)).write(contentsOf: try Self.legacyLine(Self.coins))
        let entry = JournalLine.decode(try Self.legacyLine(Self.coins).dropLast()[...], with: JSONDecoder())
        #expect(entry == .transaction(Self.coins, jwsRepresentation: nil))
        let (record, diagnostics) = try CustomerFileTests.open(directory)
        #expect(record.transactions.count == 0)
        #expect(diagnostics.map(\.kind) == [.unverifiedTransaction])
        #expect(record.needsRestore)
    }
}
