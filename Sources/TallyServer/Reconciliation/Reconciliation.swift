import Foundation
import TallyAppStoreAPI
import TallyCore
import TallyStorage
import TallyVerify

/// What one reconciliation of a customer did.
public struct Reconciliation: Sendable, Hashable {
    /// History pages read.
    public var pages = 0
    /// Transactions the App Store Server API returned (history and statuses).
    public var transactions = 0
    /// Stored for the first time.
    public var inserted = 0
    /// Replaced by a newer copy.
    public var updated = 0
    /// Already stored as they are (or older).
    public var unchanged = 0
    /// Left with the customer who owns their chain.
    public var kept = 0
    /// Renewal infos that replaced the stored ones.
    public var renewalInfosUpdated = 0
    /// Left unstored for the customer whose `appAccountToken` they carry (`ReconcileOutcome.pending`).
    public var pending = 0
    /// The history revision reached (the cursor of the next reconciliation).
    public var revision: String?

    mutating func add(_ outcome: ReconcileOutcome) {
        inserted += outcome.transactions.inserted.count
        updated += outcome.transactions.updated.count
        unchanged += outcome.transactions.unchanged.count
        kept += outcome.transactions.kept.count
        renewalInfosUpdated += outcome.renewalInfosUpdated
        pending += outcome.pending.count
    }
}

/// Brings a customer level with the App Store: walks Get Transaction History v2 from the customer's stored
/// revision to the end, then Get All Subscription Statuses, verifying every signed payload with the server's
/// verifiers, and stores what is new or newer page by page (each page one durable write with its revision), so a
/// walk stopped halfway resumes where it stopped and nothing applies twice.
struct Reconciler {
    let client: AppStoreAPIClient
    let verifier: PurchaseVerifier
    let environment: StoreEnvironment
    let store: any CustomerStore
    let now: @Sendable () -> Date

    func reconcile(_ appUserId: String) throws(ReconcileError) -> Reconciliation {
        let record: CustomerRecord
        let revision: String?
        do {
            record = try store.customer(appUserId)
            revision = try store.historyRevision(of: appUserId)
        } catch {
            throw .store(error)
        }
        // Any transaction id of the customer names their App Store account to the API.
        guard let anyId = record.transactions.map(\.transaction).first(where: { $0.environment == environment || $0.environment == nil })?
            .originalTransactionId else {
            throw .nothingToReconcile("customer has no \(environment.rawValue) transaction to ask the App Store about")
        }
        var result = Reconciliation()
        var cursor = revision
        while true {
            let page: AppStoreAPIClient.HistoryPage
            do {
                page = try client.transactionHistory(anyId, revision: cursor)
            } catch {
                throw .appStore(error)
            }
            result.pages += 1
            let transactions = try page.signedTransactions.map { (jws) throws(ReconcileError) in try verified(jws) }
            result.transactions += transactions.count
            result.add(try write(transactions, [], revision: page.revision, for: appUserId))
            cursor = page.revision
            if !page.hasMore || result.pages >= 10_000 { break }
        }
        result.revision = cursor
        let statuses: [AppStoreAPIClient.LastTransaction]
        do {
            statuses = try client.subscriptionStatuses(anyId)
        } catch {
            throw .appStore(error)
        }
        var latest: [StoredTransaction] = []
        var renewals: [StoredRenewalInfo] = []
        for status in statuses {
            latest.append(try verified(status.signedTransactionInfo))
            if let signed = status.signedRenewalInfo {
                renewals.append(StoredRenewalInfo(renewalInfo: try verifiedRenewal(signed), signedRenewalInfo: signed))
            }
        }
        result.transactions += latest.count
        result.add(try write(latest, renewals, revision: nil, for: appUserId))
        return result
    }

    private func write(_ transactions: [StoredTransaction], _ renewals: [StoredRenewalInfo], revision: String?,
                       for appUserId: String) throws(ReconcileError) -> ReconcileOutcome {
        do {
            return try store.reconcile(transactions, renewalInfos: renewals, revision: revision, for: appUserId, at: now())
        } catch {
            throw .store(error)
        }
    }

    private func verified(_ jws: String) throws(ReconcileError) -> StoredTransaction {
        switch verifier.verifyTransaction(jws) {
        case .success(let transaction):
            return StoredTransaction(transaction: transaction, source: .signedTransaction, signedTransaction: jws)
        case .failure(let failure):
            throw .verification("a transaction from the App Store Server API does not verify: \(failure.reason.rawValue) \(failure.detail)")
        }
    }

    private func verifiedRenewal(_ jws: String) throws(ReconcileError) -> RenewalInfo {
        guard let signed = verifier.verifier(for: environment) else {
            throw .verification("no verifier for \(environment.rawValue)")
        }
        switch signed.verifyRenewalInfo(jws) {
        case .success(let info): return info
        case .failure(let failure):
            throw .verification("a renewal info from the App Store Server API does not verify: \(failure.reason.rawValue) \(failure.detail)")
        }
    }
}

/// Why a reconciliation stopped (what it stored before stays stored: each page is its own write).
public enum ReconcileError: Error, Sendable, CustomStringConvertible {
    /// `appStoreServerAPI` is not configured.
    case notConfigured
    /// The customer has no transaction of the configured environment to name their App Store account.
    case nothingToReconcile(String)
    /// The App Store Server API failed (after the retries its rules allow).
    case appStore(AppStoreAPIClientError)
    /// What it answered does not verify.
    case verification(String)
    /// The store failed.
    case store(CustomerStoreError)

    public var description: String {
        switch self {
        case .notConfigured: "appStoreServerAPI is not configured in tally-server.json"
        case .nothingToReconcile(let message): message
        case .appStore(let error): "the App Store Server API: \(error)"
        case .verification(let message): message
        case .store(let error): "the store: \(error.message)"
        }
    }
}
