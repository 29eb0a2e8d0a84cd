import Foundation
import Testing
@testable import Tally
import TallyTesting
import TallyCore

@Suite("Customer file")
struct CustomerFileTests {
    static func transaction(_ id: String, product: String = Shop.premium) -> StoreTransaction {
        StoreTransaction(transactionId: id, productId: product, purchaseDate: Shop.start, type: .nonConsumable)
    }

    /// The store that signed the transactions these tests write.
    static let signatures = InMemorySignatures()

    /// A journal entry for `transaction` with a signed form the store issued.
    static func signed(_ transaction: StoreTransaction) -> JournalEntry {
        .transaction(transaction, jwsRepresentation: signatures.sign(transaction))
    }

    /// A journal entry for a new signed non-consumable transaction.
    static func signed(_ id: String) -> JournalEntry { signed(transaction(id)) }

    /// Opens the file in `directory` as a store does, verifying with ``signatures``.
    static func open(_ directory: URL) throws -> (CustomerRecord, [StoreDiagnostic]) {
        try CustomerFile(directory: directory).open(now: Shop.start, signedForms: SignedForms(verifier: signatures))
    }

    /// Writes entries through a file, then leaves the journal as it is on disk.
    static func journal(_ entries: [JournalEntry], in directory: URL) throws -> String {
        let file = CustomerFile(directory: directory)
        _ = try file.open(now: Shop.start, signedForms: SignedForms(verifier: signatures))
        try file.append(entries, durable: true)
        return file.journalPath
    }

    @Test("the journal is replayed over the snapshot and folded into it at the next open")
    func replayAndCompact() throws {
        let directory = Shop.directory()
        let path = try Self.journal([Self.signed("1"), .finished("1")], in: directory)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).split(separator: 0x0A).count == 2)
        let (record, diagnostics) = try Self.open(directory)
        #expect(diagnostics.isEmpty)
        #expect(record.transactions.ids == ["1"])
        #expect(record.finished == ["1"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).isEmpty)
    }

    @Test("a torn last line is reported and never taken as data")
    func tornTail() throws {
        let directory = Shop.directory()
        let path = try Self.journal([Self.signed("1")], in: directory)
        let torn = try JournalLine.encode(Self.signed("2"), with: JSONEncoder())
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: torn.prefix(torn.count - 10))
        try handle.close()

        let (record, diagnostics) = try Self.open(directory)
        #expect(record.transactions.ids == ["1"])
        #expect(diagnostics.map(\.kind) == [.tornJournalTail])
        #expect(record.needsRestore == false)
    }

    @Test("a damaged line before the last is reported, the journal copied aside and a restore requested")
    func damagedMiddleLine() throws {
        let directory = Shop.directory()
        let path = try Self.journal([Self.signed("1"), Self.signed("2"),
                                     Self.signed("3")], in: directory)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let secondLine = try #require(bytes.firstIndex(of: 0x0A)) + 1
        bytes[secondLine + 20] ^= 0x01
        try bytes.write(to: URL(fileURLWithPath: path))

        let (record, diagnostics) = try Self.open(directory)
        #expect(Set(record.transactions.ids) == ["1", "3"])
        #expect(diagnostics.map(\.kind) == [.corruptJournalLine])
        #expect(record.needsRestore)
        let copy = try #require(diagnostics.first?.movedTo)
        #expect(try Data(contentsOf: copy) == bytes)
        #expect(copy.lastPathComponent.hasPrefix("customer.journal.corrupt-"))
    }

    @Test("replaying a journal twice changes nothing: entries are idempotent")
    func idempotentEntries() {
        let entries: [JournalEntry] = [
            Self.signed("1"),
            .spend(Spend(id: "s", currency: "coins", amount: 2, date: Shop.start)),
            .pending(PendingPurchase(id: "p", productId: Shop.coins, quantity: 1, appAccountToken: nil,
                                     context: PurchaseContext(screen: "shop"), date: Shop.start)),
            .resolved("p"), .finished("1"),
        ]
        var once = CustomerRecord()
        entries.forEach { once.apply($0) }
        var twice = once
        entries.forEach { twice.apply($0) }
        #expect(once == twice)
        #expect(once.spends.count == 1)
        #expect(once.pending.isEmpty)
    }

    @Test("a refunded copy signed at the same moment wins over the purchase, whatever the order")
    func revokedCopyWins() {
        let purchase = Self.transaction("1")
        var refunded = purchase
        refunded.revocationDate = Shop.start.addingTimeInterval(60)
        #expect(StoreTransaction.newest(stored: purchase, incoming: refunded) == refunded)
        #expect(StoreTransaction.newest(stored: refunded, incoming: purchase) == refunded)
    }

    @Test("a journal line's checksum covers its JSON")
    func lineChecksum() throws {
        let line = try JournalLine.encode(.finished("42"), with: JSONEncoder())
        #expect(line.last == 0x0A)
        let body = line.dropLast()
        #expect(JournalLine.decode(body, with: JSONDecoder()) == .finished("42"))
        var flipped = Data(body)
        flipped[flipped.count - 3] ^= 0x02
        #expect(JournalLine.decode(flipped[...], with: JSONDecoder()) == nil)
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    }
}
