import Foundation
import TallyCore

/// Where the server keeps customers, their verified transactions, spends and ownership moves.
///
/// Every method is synchronous and safe to call from many threads at once; each write is atomic and
/// durable, committed before the method returns (so a 2xx can follow); writes that arrive together may
/// share one database transaction and its COMMIT, without depending on each other's success. The rules (what a
/// customer owns, whether a spend is covered) stay in TallyCore: a store only keeps and returns records.
/// The SQLite implementation is ``SQLiteCustomerStore``; a PostgreSQL one can follow behind this protocol.
public protocol CustomerStore: Sendable {
    /// Stores verified transactions for `appUserId` in one durable transaction.
    ///
    /// - A transaction id already stored with the same content changes nothing (`unchanged`); a later copy
    ///   that differs (a refund's `revocationDate`, a renewal's new `signedDate`) replaces it (`updated`).
    /// - The chain (`originalTransactionId`) and the `appAccountToken`, when present, belong to the first
    ///   customer who posted them. When another customer posts them, `policy` decides: `.transfer` moves the
    ///   chain (and every stored transaction of it) to `appUserId` and records an ``OwnershipTransfer``;
    ///   `.keep` leaves it with its owner and lists it in ``RecordOutcome/kept``; Apple's newer facts about it
    ///   (a refund's copy, a renewal, a purchase made with the owner's token) are stored for the owner, who is
    ///   then listed in ``RecordOutcome/ownersUpdated``.
    func record(_ transactions: [StoredTransaction], for appUserId: String, policy: OwnershipPolicy,
                at date: Date) throws(CustomerStoreError) -> RecordOutcome

    /// Everything stored for `appUserId`; an empty record (version 0) for a customer never seen.
    func customer(_ appUserId: String) throws(CustomerStoreError) -> CustomerRecord

    /// Stores the spend `admit` returns for `appUserId`, atomically: no other write to this customer can
    /// happen between `admit` reading the record and the spend being committed, so concurrent spends never
    /// overdraw, and a spend dated inside `admit` is dated in commit order. `admit` returns nil for a spend
    /// already recorded (nothing is written, ``SpendOutcome/duplicate``) and throws to refuse it (the error is
    /// rethrown wrapped in ``CustomerStoreError/Reason/refused``).
    func spend(for appUserId: String,
               admit: (CustomerRecord) throws -> Spend?) throws(CustomerStoreError) -> SpendOutcome

    /// Proves the store can take a write now, for `GET /readyz`: makes a small durable probe write (and
    /// whatever cheap checks show that writes would fail, such as a full file system); throws what a real
    /// write would meet.
    func checkWritable() throws(CustomerStoreError)
}
