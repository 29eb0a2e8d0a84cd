import Foundation
import TallyCore

/// Stores and applies notifications inside one write transaction, and applies the notifications waiting for
/// a chain once it has an owner (see ``CustomerStore/recordNotification(_:at:)``), by one set of rules for
/// every store, over the store's ``NotificationRows``.
///
/// A notification's transaction goes through ``TransactionRecorder`` exactly as a posted one does (newer facts
/// win by `StoreTransaction.supersedes(_:)`, nets move with `CurrencyCredits`), under
/// ``OwnershipPolicy/keep`` for the owner found, so a notification never moves ownership; its renewal info
/// replaces the chain's when it supersedes it (`RenewalInfo.supersedes(_:)`).
public struct NotificationRecorder<Rows: NotificationRows> {
    let rows: Rows
    let credits: CurrencyCredits
    /// When the write happened, at whole milliseconds.
    let date: Date
    /// Customers whose stored data changed, each once (compared by bytes).
    public private(set) var changed: [String] = []

    /// A recorder writing at `date`.
    public init(rows: Rows, credits: CurrencyCredits, date: Date) {
        self.rows = rows
        self.credits = credits
        self.date = Date(millisecondsSince1970: date.millisecondsSince1970)
    }

    /// Stores `item` (unless its `notificationUUID` is stored already: a duplicate) and applies it to its
    /// customer, or leaves it pending; its chain is locked first.
    public mutating func record(_ item: PreparedNotification) throws(Rows.Failure) -> NotificationOutcome {
        let chain = item.chain
        if let chain { try rows.lockChains([chain]) }
        guard let claim = try rows.claim(item, date: date) else { return NotificationOutcome(result: .duplicate) }
        var owner: String?
        let result: NotificationResult
        if !item.hasFacts {
            result = .recorded
        } else if let found = try self.owner(chain: chain, token: item.stored.appAccountToken) {
            owner = found
            result = try apply(transaction: item.transaction, renewalInfo: item.renewalInfo, to: found)
        } else {
            result = .pending
        }
        try rows.settle(claim, item, result: result, owner: owner, date: date)
        if owner != nil, let chain { try adopt(chain: chain) }
        return NotificationOutcome(result: result, appUserId: owner, customersChanged: changed)
    }

    /// Applies every notification pending for `chain` (locked by the caller) to the chain's owner, oldest
    /// received first; nothing when the chain has no owner or nothing waits.
    public mutating func adopt(chain: String) throws(Rows.Failure) {
        let waiting = try rows.pendingNotifications(for: chain)
        guard !waiting.isEmpty, let owner = try owner(chain: chain, token: nil) else { return }
        for item in waiting {
            let result = try apply(transaction: item.transaction, renewalInfo: item.renewalInfo, to: owner)
            try rows.settlePending(item.sequence, result: result, owner: owner, date: date)
        }
    }

    /// Adopts the pending notifications of each chain (once per chain, ids compared as bytes) after a post,
    /// adding every customer they changed to `outcome`'s ``RecordOutcome/ownersUpdated``.
    public mutating func adoptAll(_ chains: [String], into outcome: inout RecordOutcome) throws(Rows.Failure) {
        var seen = Set<UTF8Key>()
        for chain in chains where seen.insert(UTF8Key(chain)).inserted {
            try adopt(chain: chain)
        }
        for customer in changed where !outcome.ownersUpdated.contains(where: { $0.hasSameBytes(as: customer) }) {
            outcome.ownersUpdated.append(customer)
        }
    }

    /// Stores `info` as its chain's renewal info when it supersedes the stored copy (or none is stored); whether
    /// anything changed. The chain is locked by the caller.
    public func storeRenewalInfo(_ info: PreparedRenewalInfo) throws(Rows.Failure) -> Bool {
        if let stored = try rows.storedRenewalInfo(of: info.normalized.originalTransactionId) {
            guard stored != info.normalized, info.normalized.supersedes(stored) else { return false }
        }
        try rows.writeRenewalInfo(info, date: date)
        return true
    }

    /// Stores the facts for `owner`: the transaction through ``TransactionRecorder``, the renewal info when it
    /// supersedes the chain's. `applied` when anything changed, else `unchanged`.
    private mutating func apply(transaction: PreparedTransaction?, renewalInfo: PreparedRenewalInfo?,
                                to owner: String) throws(Rows.Failure) -> NotificationResult {
        var changedAnything = false
        if let transaction {
            try rows.lockChains([transaction.normalized.originalTransactionId])
            var recorder = TransactionRecorder(rows: rows, appUserId: owner, policy: .keep, credits: credits, date: date)
            try recorder.store(transaction)
            let outcome = try recorder.finish()
            changedAnything = outcome.changedAnything || !outcome.ownersUpdated.isEmpty
        }
        if let renewalInfo {
            let chain = renewalInfo.normalized.originalTransactionId
            try rows.lockChains([chain])
            if try rows.owner(ofChain: chain) == nil {
                // Owned through its minted account token and no transaction to file it: the chain becomes the owner's.
                try rows.prepareCustomer(owner)
                try rows.fileChain(chain, owner: owner)
            }
            if try storeRenewalInfo(renewalInfo) {
                try rows.bumpVersion(of: owner)
                changedAnything = true
            }
        }
        if changedAnything, !changed.contains(where: { $0.hasSameBytes(as: owner) }) { changed.append(owner) }
        return changedAnything ? .applied : .unchanged
    }

    /// The owner of `chain`, else the minter of `token`; nil when neither is stored (a token never minted names
    /// no one, so the notification waits for a customer to post its chain).
    private func owner(chain: String?, token: String?) throws(Rows.Failure) -> String? {
        if let chain, let owner = try rows.owner(ofChain: chain) { return owner }
        guard let token = token.flatMap(AccountToken.canonical) else { return nil }
        return try rows.owner(ofToken: token)
    }
}
