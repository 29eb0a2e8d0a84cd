import Foundation
import Synchronization
import TallyCore
@testable import TallyServer
import TallyStorage

/// A real store (SQLite or PostgreSQL) behind a switch that makes every call fail with `busy`, to test 503 answers and
/// that the state cache really answers without the store.
final class SwitchableStore: CustomerStore {
    let base: any CustomerStore
    private let failing = Mutex(false)
    private let readCount = Mutex(0)

    init(_ base: any CustomerStore) {
        self.base = base
    }

    /// Makes every following call fail (or work again).
    func setFailing(_ value: Bool) {
        failing.withLock { $0 = value }
    }

    private let wholeStateCount = Mutex(0)

    /// How many times ``customer(_:)`` reached the database.
    var reads: Int { readCount.withLock { $0 } }

    /// How many writes read back the whole state record (not only the nets) for their answer.
    var wholeStatesReadByWrites: Int { wholeStateCount.withLock { $0 } }

    private func check() throws(CustomerStoreError) {
        if failing.withLock({ $0 }) { throw CustomerStoreError(.busy, "the test switched the store off") }
    }

    func offeringsVersion() throws(CustomerStoreError) -> Int64 {
        try check()
        return try base.offeringsVersion()
    }

    func savedOfferings(version: Int64?) throws(CustomerStoreError) -> SavedOfferings? {
        try check()
        return try base.savedOfferings(version: version)
    }

    func saveOfferings(_ document: [UInt8], following: Int64, origin: OfferingsOrigin, rolledBackTo: Int64?,
                       at date: Date) throws(CustomerStoreError) -> SavedOfferings? {
        try check()
        return try base.saveOfferings(document, following: following, origin: origin, rolledBackTo: rolledBackTo, at: date)
    }

    func offeringsHistory(before: Int64?, limit: Int) throws(CustomerStoreError) -> [SavedOfferings] {
        try check()
        return try base.offeringsHistory(before: before, limit: limit)
    }

    func record(_ transactions: [StoredTransaction], for appUserId: String, policy: OwnershipPolicy,
                at date: Date) throws(CustomerStoreError) -> RecordOutcome {
        try check()
        return try base.record(transactions, for: appUserId, policy: policy, at: date)
    }

    func recordReadingState(_ transactions: [StoredTransaction], for appUserId: String, policy: OwnershipPolicy,
                            at date: Date, knownFactsVersion: Int64?) throws(CustomerStoreError)
        -> (outcome: RecordOutcome, state: CustomerRecord, onlyNets: Bool)
    {
        try check()
        let written = try base.recordReadingState(transactions, for: appUserId, policy: policy, at: date,
                                                  knownFactsVersion: knownFactsVersion)
        if !written.onlyNets { wholeStateCount.withLock { $0 += 1 } }
        return written
    }

    func spend(id: String, currency: String, for appUserId: String, at date: Date, encoding: StateEncoding,
               admit: (Spend?, Decimal) throws -> Spend?) throws(CustomerStoreError) -> SpendAnswer {
        try check()
        return try base.spend(id: id, currency: currency, for: appUserId, at: date, encoding: encoding, admit: admit)
    }

    func mintAccountToken(for appUserId: String, candidate: String) throws(CustomerStoreError) -> String {
        try check()
        return try base.mintAccountToken(for: appUserId, candidate: candidate)
    }

    func accountToken(of appUserId: String) throws(CustomerStoreError) -> String? {
        try check()
        return try base.accountToken(of: appUserId)
    }

    func owner(ofToken token: String) throws(CustomerStoreError) -> String? {
        try check()
        return try base.owner(ofToken: token)
    }

    func customer(_ appUserId: String) throws(CustomerStoreError) -> CustomerRecord {
        try check()
        readCount.withLock { $0 += 1 }
        return try base.customer(appUserId)
    }

    func customerState(_ appUserId: String) throws(CustomerStoreError) -> CustomerRecord {
        try check()
        readCount.withLock { $0 += 1 }
        return try base.customerState(appUserId)
    }

    func customerState(_ appUserId: String, at date: Date) throws(CustomerStoreError) -> CustomerRecord {
        try check()
        readCount.withLock { $0 += 1 }
        return try base.customerState(appUserId, at: date)
    }

    func spend(id: String, currency: String, for appUserId: String,
               admit: (Spend?, Decimal) throws -> Spend?) throws(CustomerStoreError) -> SpendOutcome {
        try check()
        return try base.spend(id: id, currency: currency, for: appUserId, admit: admit)
    }

    func checkWritable() throws(CustomerStoreError) {
        try check()
        try base.checkWritable()
    }

    func recordNotification(_ notification: StoredNotification, at date: Date) throws(CustomerStoreError)
        -> NotificationOutcome {
        try check()
        return try base.recordNotification(notification, at: date)
    }

    func oldestPendingNotificationDate() throws(CustomerStoreError) -> Date? {
        try check()
        return try base.oldestPendingNotificationDate()
    }

    func historyRevision(of appUserId: String) throws(CustomerStoreError) -> String? {
        try check()
        return try base.historyRevision(of: appUserId)
    }

    func reconcile(_ transactions: [StoredTransaction], renewalInfos: [StoredRenewalInfo], revision: String?,
                   for appUserId: String, at date: Date) throws(CustomerStoreError) -> ReconcileOutcome {
        try check()
        return try base.reconcile(transactions, renewalInfos: renewalInfos, revision: revision, for: appUserId, at: date)
    }

    func backfillCursor() throws(CustomerStoreError) -> BackfillCursor? {
        try check()
        return try base.backfillCursor()
    }

    func saveBackfillCursor(_ cursor: BackfillCursor) throws(CustomerStoreError) {
        try check()
        try base.saveBackfillCursor(cursor)
    }

    func openConsumptionRequests(receivedSince date: Date) throws(CustomerStoreError) -> [ConsumptionRequest] {
        try check()
        return try base.openConsumptionRequests(receivedSince: date)
    }

    func recordConsumptionAnswer(_ answer: ConsumptionAnswer) throws(CustomerStoreError) -> Bool {
        try check()
        return try base.recordConsumptionAnswer(answer)
    }

    func consumptionAnswer(notificationUUID: String) throws(CustomerStoreError) -> ConsumptionAnswer? {
        try check()
        return try base.consumptionAnswer(notificationUUID: notificationUUID)
    }

    var keepsEncodedStates: Bool { base.keepsEncodedStates }

    func storedState(of appUserId: String, fingerprint: String, at date: Date) throws(CustomerStoreError)
        -> StoredCustomerState?
    {
        try check()
        return try base.storedState(of: appUserId, fingerprint: fingerprint, at: date)
    }

    func keepState(_ state: StoredCustomerState, for appUserId: String) throws(CustomerStoreError) -> Bool {
        try check()
        return try base.keepState(state, for: appUserId)
    }

    func alias(_ alias: String, to appUserId: String, at date: Date) throws(CustomerStoreError) -> AliasOutcome {
        try check()
        return try base.alias(alias, to: appUserId, at: date)
    }

    func customerId(aliasedBy alias: String) throws(CustomerStoreError) -> String? {
        try check()
        return try base.customerId(aliasedBy: alias)
    }

    func aliases(of appUserId: String) throws(CustomerStoreError) -> [CustomerAlias] {
        try check()
        return try base.aliases(of: appUserId)
    }

    func attributes(of appUserId: String) throws(CustomerStoreError) -> [String: String] {
        try check()
        return try base.attributes(of: appUserId)
    }

    func countOfferSignature(_ offerIdentifier: String, for appUserId: String, limit: Int) throws(CustomerStoreError)
        -> Bool {
        try check()
        return try base.countOfferSignature(offerIdentifier, for: appUserId, limit: limit)
    }

    func setAttributes(_ changes: [String: String?], for appUserId: String) throws(CustomerStoreError)
        -> [String: String] {
        try check()
        return try base.setAttributes(changes, for: appUserId)
    }
}
