import Foundation
import TallyCore

/// Where the server keeps customers, their verified transactions, spends and ownership moves.
///
/// Every method is synchronous and safe to call from many threads at once; each write is atomic and
/// durable, committed before the method returns (so a 2xx can follow); writes that arrive together may
/// share one database transaction and its COMMIT, without depending on each other's success. The rules (what a
/// customer owns, whether a spend is covered) stay in TallyCore: a store only keeps and returns records.
/// The implementations are ``SQLiteCustomerStore`` and TallyPostgres's `PostgresCustomerStore`; both write through
/// one ``TransactionRecorder`` and one ``NotificationRecorder`` over their own rows.
public protocol CustomerStore: OfferingsStore {
    /// Stores verified transactions for `appUserId` in one durable transaction.
    ///
    /// - A transaction id already stored with the same content changes nothing (`unchanged`); a later copy
    ///   that differs (a refund's `revocationDate`, a renewal's new `signedDate`) replaces it (`updated`).
    /// - The chain (`originalTransactionId`) belongs to the first customer who posted it; a new chain whose
    ///   `appAccountToken` was minted (``mintAccountToken(for:candidate:)``) belongs to the token's minter,
    ///   whoever posts it. A token is never given by a post and never moves; a token never minted carries no
    ///   authority. When a chain or minted token of another customer is posted, `policy` decides: `.transfer`
    ///   moves a restorable chain (and every stored transaction of it, never other chains) to `appUserId` and
    ///   records an ``OwnershipTransfer``; `.keep` (and any consumable) leaves it with its owner and lists it in
    ///   ``RecordOutcome/kept``; Apple's newer facts about it (a refund's copy, a renewal, a purchase made with
    ///   the owner's minted token) are stored for the owner, who is then listed in ``RecordOutcome/ownersUpdated``.
    func record(_ transactions: [StoredTransaction], for appUserId: String, policy: OwnershipPolicy,
                at date: Date) throws(CustomerStoreError) -> RecordOutcome

    /// ``record(_:for:policy:at:)``, returning with its outcome ``customerState(_:at:)``'s record of `appUserId` at
    /// `date` as this write left it (compute the state at `date`): a store that can reads it inside the same
    /// database transaction, so a post needs no second read after its COMMIT. (The default records, then reads.)
    ///
    /// `knownFactsVersion` is the ``CustomerRecord/factsVersion`` of a state of `appUserId` the caller holds. When
    /// the customer's facts version is still that after the write (every write since, this one included, moved only
    /// nets: coin purchases, coin refunds, spends), the record holds only the versions and the nets, `onlyNets` is
    /// true, and the caller's state with these nets is the state after the write: a coin purchase reads nothing
    /// that grows with the history.
    func recordReadingState(_ transactions: [StoredTransaction], for appUserId: String, policy: OwnershipPolicy,
                            at date: Date, knownFactsVersion: Int64?) throws(CustomerStoreError)
        -> (outcome: RecordOutcome, state: CustomerRecord, onlyNets: Bool)

    /// The account token minted for `appUserId`: the one stored, else `candidate` (``AccountToken/mint()``),
    /// stored durably now; a customer has one token for good. The customer's row is created when absent.
    func mintAccountToken(for appUserId: String, candidate: String) throws(CustomerStoreError) -> String

    /// The account token minted for `appUserId`; nil when none was.
    func accountToken(of appUserId: String) throws(CustomerStoreError) -> String?

    /// The customer who minted `token` (compared in ``AccountToken/canonical(_:)`` form); nil for a token never
    /// minted, which carries no authority.
    func owner(ofToken token: String) throws(CustomerStoreError) -> String?

    /// Everything stored for `appUserId`; an empty record (version 0) for a customer never seen.
    func customer(_ appUserId: String) throws(CustomerStoreError) -> CustomerRecord

    /// What the customer state needs of `appUserId`, from one snapshot: the version, the materialised nets and
    /// every transaction except consumables (no spends, no transfers), so its cost does not grow with coin
    /// purchases or spends. Compute the state with `CustomerState(…, nets: record.nets, …)`.
    func customerState(_ appUserId: String) throws(CustomerStoreError) -> CustomerRecord

    /// ``customerState(_:)`` for a state computed at `date` (and only then): a store that keeps TallyCore's
    /// `PeriodSupersession` marks leaves out the subscription periods superseded by `date`, which changes no state
    /// at `date`, so the read does not grow with renewals. (The default reads ``customerState(_:)``.)
    func customerState(_ appUserId: String, at date: Date) throws(CustomerStoreError) -> CustomerRecord

    /// Stores the spend `admit` returns for `appUserId`, atomically with the balance it was judged on: no other
    /// write to this customer can happen between `admit` and the commit, so concurrent spends never overdraw,
    /// and a spend dated inside `admit` is dated in commit order. `admit` is given the spend already recorded
    /// with `id` (compared as bytes), if any, and the net amount of `currency` kept for the customer; it returns
    /// nil for a spend already recorded (nothing is written, ``SpendOutcome/duplicate(_:)``) and throws to refuse
    /// (the error is rethrown wrapped in ``CustomerStoreError/Reason/refused``). Neither the judgement nor the
    /// write reads the customer's history. The outcome carries ``customerState(_:)``'s record after the spend.
    func spend(id: String, currency: String, for appUserId: String,
               admit: (_ existing: Spend?, _ net: Decimal) throws -> Spend?) throws(CustomerStoreError) -> SpendOutcome

    /// ``spend(id:currency:for:admit:)``, answering with the customer's encoded state at `date` by `encoding`. A store
    /// that keeps encoded states restates the kept one when it is servable (``StoredCustomerState/isServable(fingerprint:at:)``)
    /// at the locked version — a spend moves only the nets — instead of reading the transactions, and keeps the
    /// state after the spend in the spend's own write, so the next read of any server is one row. (The default
    /// spends, then encodes the record the spend returned.)
    func spend(id: String, currency: String, for appUserId: String, at date: Date, encoding: StateEncoding,
               admit: (_ existing: Spend?, _ net: Decimal) throws -> Spend?) throws(CustomerStoreError) -> SpendAnswer

    /// Proves the store can take a write now, for `GET /readyz`: makes a small durable probe write (and
    /// whatever cheap checks show that writes would fail, such as a full file system); throws what a real
    /// write would meet.
    func checkWritable() throws(CustomerStoreError)

    /// Stores a verified App Store Server Notification and applies it, in one durable transaction (so a 200
    /// can follow; a throw means nothing was stored, and Apple retries).
    ///
    /// - A `notificationUUID` already stored changes nothing: ``NotificationResult/duplicate``.
    /// - Which customer: the owner of its chain (``StoredNotification/originalTransactionId``); else the
    ///   minter of its `appAccountToken` (a token never minted names no one); else it is stored
    ///   ``NotificationResult/pending`` and applied when a customer posts a transaction of that chain
    ///   (``record(_:for:policy:at:)`` adopts it in the same write).
    /// - Applying: its transaction is stored for the owner exactly as a posted one under
    ///   ``OwnershipPolicy/keep`` (newer facts win, nets move; a notification never moves ownership); its
    ///   renewal info replaces the chain's when it supersedes it (`RenewalInfo.supersedes(_:)`).
    ///   Nothing changed is ``NotificationResult/unchanged``.
    /// - One that does not apply facts (``StoredNotification/appliesFacts``) is ``NotificationResult/recorded``.
    ///
    /// A record of the owner then lists it in ``CustomerRecord/notifications`` and the renewal info in
    /// ``CustomerRecord/renewalInfos``.
    func recordNotification(_ notification: StoredNotification, at date: Date) throws(CustomerStoreError)
        -> NotificationOutcome

    /// When the oldest ``NotificationResult/pending`` notification was received; nil when none waits.
    func oldestPendingNotificationDate() throws(CustomerStoreError) -> Date?

    /// The App Store Server API history `revision` reconciliation reached for `appUserId`; nil before the first.
    func historyRevision(of appUserId: String) throws(CustomerStoreError) -> String?

    /// Stores what the App Store Server API says of `appUserId` in one durable transaction: `transactions` as
    /// posts under ``OwnershipPolicy/keep`` (newer facts win, nets move, a chain of another customer stays with
    /// it; pending notifications of the chains apply), `renewalInfos` when they supersede the stored ones, and
    /// `revision` (when given) as the customer's cursor, so a walk stopped halfway resumes without loss.
    func reconcile(_ transactions: [StoredTransaction], renewalInfos: [StoredRenewalInfo], revision: String?,
                   for appUserId: String, at date: Date) throws(CustomerStoreError) -> ReconcileOutcome

    /// Where the last back-fill of Get Notification History stopped (``BackfillCursor``); nil before the first.
    func backfillCursor() throws(CustomerStoreError) -> BackfillCursor?

    /// Stores where a back-fill stands, durably (after the notifications it covers were stored).
    func saveBackfillCursor(_ cursor: BackfillCursor) throws(CustomerStoreError)

    /// The stored `CONSUMPTION_REQUEST` notifications without a ``ConsumptionAnswer``, received at or after
    /// `date`, oldest first, each with the customer its transaction is stored for now.
    func openConsumptionRequests(receivedSince date: Date) throws(CustomerStoreError) -> [ConsumptionRequest]

    /// Stores `answer` durably; a request already answered keeps its first answer (returns false).
    func recordConsumptionAnswer(_ answer: ConsumptionAnswer) throws(CustomerStoreError) -> Bool

    /// The answer recorded for the notification `notificationUUID` (compared as bytes); nil when none.
    func consumptionAnswer(notificationUUID: String) throws(CustomerStoreError) -> ConsumptionAnswer?

    /// Whether this store keeps each customer's encoded state beside its record (``storedState(of:fingerprint:at:)``,
    /// ``keepState(_:for:)``). PostgreSQL does: several servers read one database, and a kept state makes a read
    /// one row. SQLite does not: it reads in-process, and computes the state each time.
    var keepsEncodedStates: Bool { get }

    /// The encoded state kept for `appUserId` when it is still right: computed at the customer's current version
    /// with `fingerprint`, and `date` within its validity; nil otherwise (and for a customer never seen).
    func storedState(of appUserId: String, fingerprint: String, at date: Date) throws(CustomerStoreError)
        -> StoredCustomerState?

    /// Keeps `state` for `appUserId` when the customer's version is still `state.version` (a write since then
    /// leaves nothing kept); true when it was kept.
    @discardableResult
    func keepState(_ state: StoredCustomerState, for appUserId: String) throws(CustomerStoreError) -> Bool

    /// Makes `alias`, an anonymous id (`AnonymousCustomerId`), a second id of `appUserId`, an identified
    /// one, in one durable transaction that also moves everything stored for the anonymous customer to `appUserId`
    /// (under every ownership policy): its chains and their transactions, its spends and nets, its notifications,
    /// its minted account token's authority (a token minted for the alias names `appUserId` from then on) and its
    /// attributes (`appUserId`'s own win a clash). Both customers' versions grow, so no kept state of either
    /// stays servable. An alias is for good: one already naming another customer is a ``AliasOutcome/conflict(owner:)``
    /// and nothing is written. The caller checks the ids' kinds.
    func alias(_ alias: String, to appUserId: String, at date: Date) throws(CustomerStoreError) -> AliasOutcome

    /// The customer `alias` is an alias of; nil when it is none (compared as bytes).
    func customerId(aliasedBy alias: String) throws(CustomerStoreError) -> String?

    /// The aliases of `appUserId`, oldest first.
    func aliases(of appUserId: String) throws(CustomerStoreError) -> [CustomerAlias]

    /// The attributes kept for `appUserId`; empty for a customer never seen.
    func attributes(of appUserId: String) throws(CustomerStoreError) -> [String: String]

    /// Merges `changes` (a nil value deletes its key) into `appUserId`'s attributes in one durable transaction,
    /// judged by TallyCore's `CustomerAttributes.merged(_:with:)` against the attributes as the write
    /// found them (so concurrent writes never pass the bounds); a refusal throws ``CustomerStoreError/Reason/refused``
    /// with the `CustomerAttributesProblem` in ``CustomerStoreError/underlying`` and writes nothing.
    /// Returns the attributes after the write.
    /// Counts one promotional offer signature issued to `appUserId` for `offerIdentifier` when fewer than `limit`
    /// were, in one durable transaction; false (nothing written) when `limit` were issued already.
    func countOfferSignature(_ offerIdentifier: String, for appUserId: String, limit: Int) throws(CustomerStoreError) -> Bool

    func setAttributes(_ changes: [String: String?], for appUserId: String) throws(CustomerStoreError)
        -> [String: String]
}

extension CustomerStore {
    /// False: the store computes every state from its record.
    public var keepsEncodedStates: Bool { false }

    /// Nil: nothing is kept.
    public func storedState(of appUserId: String, fingerprint: String, at date: Date) throws(CustomerStoreError)
        -> StoredCustomerState? { nil }

    /// Keeps nothing (false).
    @discardableResult
    public func keepState(_ state: StoredCustomerState, for appUserId: String) throws(CustomerStoreError) -> Bool {
        false
    }

    /// Spends, then encodes the record the spend returned (nothing is kept).
    public func spend(id: String, currency: String, for appUserId: String, at date: Date, encoding: StateEncoding,
                      admit: (_ existing: Spend?, _ net: Decimal) throws -> Spend?) throws(CustomerStoreError)
        -> SpendAnswer
    {
        try spend(id: id, currency: currency, for: appUserId, admit: admit).answer(encoding, at: date)
    }

    public func customerState(_ appUserId: String, at date: Date) throws(CustomerStoreError) -> CustomerRecord {
        try customerState(appUserId)
    }

    public func recordReadingState(_ transactions: [StoredTransaction], for appUserId: String,
                                   policy: OwnershipPolicy, at date: Date, knownFactsVersion: Int64?) throws(CustomerStoreError)
        -> (outcome: RecordOutcome, state: CustomerRecord, onlyNets: Bool)
    {
        let outcome = try record(transactions, for: appUserId, policy: policy, at: date)
        return (outcome, try customerState(appUserId, at: date), false)
    }

    /// ``recordReadingState(_:for:policy:at:knownFactsVersion:)`` for a caller holding no state: the whole state record.
    public func recordReadingState(_ transactions: [StoredTransaction], for appUserId: String,
                                   policy: OwnershipPolicy, at date: Date) throws(CustomerStoreError)
        -> (outcome: RecordOutcome, state: CustomerRecord)
    {
        let (outcome, state, _) = try recordReadingState(transactions, for: appUserId, policy: policy, at: date,
                                                         knownFactsVersion: nil)
        return (outcome, state)
    }
}
