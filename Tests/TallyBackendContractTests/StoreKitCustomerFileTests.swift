#if os(Linux)
import Foundation
@_spi(Scripting) import StoreKit
@testable import Tally
import TallyCore
import TallyStoreKit
import Testing

extension OneAtATime {
/// The tamper-resistant customer file on the StoreKit backend: at launch each kept transaction is re-verified by the
/// Apple-path `AppStoreVerifier` (CryptoKit and Security; here their stand-ins), where StoreKit's verdict is gone.
@Suite("StoreKit backend: the customer file re-verified by the Apple-path verifier")
struct StoreKitCustomerFileTests {
    /// Appends a line as an attacker would: the entry's JSON behind its recomputed CRC-32.
    static func append(_ entry: JournalEntry, to journal: URL) throws {
        let handle = try FileHandle(forWritingTo: journal)
        try handle.seekToEnd()
        try handle.write(contentsOf: try JournalLine.encode(entry, with: JSONEncoder()))
        try handle.close()
    }

    /// The signed form StoreKit hands over for `transaction`, and its payload as Tally's model.
    static func signed(_ transaction: StoreKit.Transaction) throws -> (TallyCore.StoreTransaction, String) {
        let jws = StoreKit.VerificationResult<StoreKit.Transaction>.verified(transaction).jwsRepresentation
        return (try JSONDecoder().decode(TallyCore.StoreTransaction.self, from: transaction.jsonRepresentation), jws)
    }

    @Test("forged journal lines grant nothing after a relaunch; the bought coins still count")
    func forgedLinesAreIgnored() async throws {
        let world = try StoreKitWorld()
        let app = App(world)
        var store = try await app.launch()
        _ = try await store.purchase("market.coins.100")
        #expect(await store.balance("coins") == 100)
        await store.close()

        let journal = app.directory.appendingPathComponent(CustomerFile.journalName)
        // Signed by an authority the verifier does not trust.
        let (foreign, foreignJWS) = try Self.signed(try world.loose("market.coins.100", forged: true))
        try Self.append(.transaction(foreign, jwsRepresentation: foreignJWS), to: journal)
        // A genuine signed form under a transaction it does not sign (a larger quantity).
        var (altered, genuineJWS) = try Self.signed(try world.loose("market.coins.100"))
        altered.quantity = 50
        try Self.append(.transaction(altered, jwsRepresentation: genuineJWS), to: journal)

        store = try await app.launch()
        #expect(await store.balance("coins") == 100, "the purchase verified at launch; the forged lines did not")
        let unverified = await store.diagnostics.filter { $0.kind == .unverifiedTransaction }.map(\.message)
        #expect(unverified.contains { $0.contains(foreign.transactionId) }, "\(unverified)")
        #expect(unverified.contains { $0.contains(altered.transactionId) }, "\(unverified)")
        await store.close()
        #expect(try await app.launch().balance("coins") == 100)
    }
}
}
#endif
