import Foundation
import TallyCore

/// Stores one ``CustomerStore/record(_:for:policy:at:)`` call's transactions inside the store's write
/// transaction, by one set of rules for every store: the ownership policy, kept chains, newer facts win
/// (TallyCore's `StoreTransaction.supersedes`), nets moved by `CurrencyCredits`, versions bumped.
/// The store supplies the rows (``TransactionRows``) and has locked the posted chains (``TransactionRows/lockChains(_:)``).
public struct TransactionRecorder<Rows: TransactionRows> {
    let rows: Rows
    let appUserId: String
    let policy: OwnershipPolicy
    /// What each transaction credits: every stored copy that changes moves its owner's nets in the same write.
    let credits: CurrencyCredits
    /// How often one chain may move within the hour.
    let transferLimit: TransferLimit
    /// When the post happened, at whole milliseconds (as transfers read back).
    let date: Date
    var outcome = RecordOutcome()
    /// Customers whose versions grow at ``finish()`` besides the poster (each once, compared by bytes).
    var losers: [String] = []
    /// Whether a row a customer state reads besides the nets was written for the poster: a transaction that is
    /// not a consumable, inserted or replaced, or a consumable replacing one that was not. Chains moved and other
    /// customers' facts show in the outcome (``RecordOutcome/transfers``, ``RecordOutcome/ownersUpdated``).
    public private(set) var wroteStateFacts = false

    /// A recorder of posts for `appUserId` under `policy`.
    public init(rows: Rows, appUserId: String, policy: OwnershipPolicy, credits: CurrencyCredits,
                transferLimit: TransferLimit = TransferLimit(), date: Date) {
        self.rows = rows
        self.appUserId = appUserId
        self.policy = policy
        self.credits = credits
        self.transferLimit = transferLimit
        self.date = Date(millisecondsSince1970: date.millisecondsSince1970)
    }

    /// Applies the ownership policy to `item`, then inserts, updates or leaves its stored copy.
    ///
    /// Its owners are the chain's, its stored copy's and the minter of its `appAccountToken` (a token never
    /// minted names none); when one is another customer it is kept for them, first the stored copy's, then the
    /// chain's, then the minter's. A post never gives a token to anyone, and a token never moves.
    ///
    /// Only restorable purchases (`ProductType.isRestorable`) move under ``OwnershipPolicy/transfer``:
    /// a consumable stays with the customer it was first credited to under every policy, so one purchase
    /// never credits two accounts.
    public mutating func store(_ item: PreparedTransaction) throws(Rows.Failure) {
        let transaction = item.normalized
        let chain = transaction.originalTransactionId
        let token = transaction.appAccountToken
        let chainOwner = try rows.owner(ofChain: chain)
        // Only a minted token names an owner: one never minted (chosen by an app, or guessed) carries no authority.
        let tokenOwner = try token.flatMap(AccountToken.canonical).map { (token) throws(Rows.Failure) in
            try rows.owner(ofToken: token)
        } ?? nil
        let existing = try rows.storedCopy(transaction.transactionId)
        if let existing, !existing.chain.hasSameBytes(as: chain) { try rows.lockChains([existing.chain]) }
        let others = [chainOwner, tokenOwner, existing?.owner].compactMap { $0 }.filter { !isThisCustomer($0) }
        if !others.isEmpty {
            guard policy == .transfer, transaction.type.isRestorable else {
                outcome.kept.append(transaction.transactionId)
                try keep(item, owner: existing?.owner ?? chainOwner ?? tokenOwner, existing: existing,
                         chainOwner: chainOwner)
                return
            }
            // Past the limit the chain stays with its owner, who still gets Apple's newer facts, as under keep.
            if chainOwner.map({ !isThisCustomer($0) }) ?? false, let again = try limitedUntil(chain) {
                outcome.kept.append(transaction.transactionId)
                outcome.transferLimited.append(transaction.transactionId)
                outcome.transferAllowedAgain = min(outcome.transferAllowedAgain ?? again, again)
                try keep(item, owner: existing?.owner ?? chainOwner ?? tokenOwner, existing: existing,
                         chainOwner: chainOwner)
                return
            }
            try rows.prepareCustomer(appUserId)
            try moveChain(chain)
            if let existing { try moveChain(existing.chain) }  // a stored copy filed under another chain
            // The token stays with its minter and moves no other chain: only the chain posted moves.
        }
        try rows.prepareCustomer(appUserId)
        if chainOwner == nil { try rows.fileChain(chain, owner: appUserId) }
        switch try write(item, replacing: existing, owner: appUserId) {
        case .inserted: outcome.inserted.append(transaction.transactionId)
        case .updated: outcome.updated.append(transaction.transactionId)
        case .unchanged: outcome.unchanged.append(transaction.transactionId)
        }
    }

    /// Bumps the versions of every customer this call changed and returns the outcome.
    public mutating func finish() throws(Rows.Failure) -> RecordOutcome {
        if outcome.changedAnything {
            // Consumables only, no chain moved: the poster's facts are as they were.
            try rows.bumpVersion(of: appUserId, factsToo: wroteStateFacts || !outcome.transfers.isEmpty)
        }
        for loser in losers { try rows.bumpVersion(of: loser) }
        return outcome
    }

    /// Under ``OwnershipPolicy/keep``: Apple's newer facts about a kept chain (a refund, a renewal) still
    /// reach its owner, who keeps it; the customer who posted it gets nothing.
    private mutating func keep(_ item: PreparedTransaction, owner: String?, existing: StoredTransactionRow?,
                               chainOwner: String?) throws(Rows.Failure) {
        guard let owner else { return }
        if chainOwner == nil { try rows.fileChain(item.normalized.originalTransactionId, owner: owner) }
        guard try write(item, replacing: existing, owner: owner) != .unchanged,
              !outcome.ownersUpdated.contains(where: { $0.hasSameBytes(as: owner) }) else { return }
        outcome.ownersUpdated.append(owner)
        losers.append(owner)
    }

    /// Whether `id` is this customer's id, byte for byte as the stores compare ids (Swift's `==` would also
    /// match a different Unicode normalization, which the database stores as another customer).
    func isThisCustomer(_ id: String) -> Bool {
        id.hasSameBytes(as: appUserId)
    }

    /// What ``write(_:replacing:owner:)`` did.
    private enum Write { case inserted, updated, unchanged }

    /// Inserts the transaction for `owner`, replaces a stored copy it supersedes, or leaves the stored copy
    /// when it is equal or newer: newer facts win, so a copy signed earlier than the stored one (a purchase
    /// replayed after its refund) changes nothing.
    private mutating func write(_ item: PreparedTransaction, replacing existing: StoredTransactionRow?,
                                owner: String) throws(Rows.Failure) -> Write {
        let transaction = item.normalized
        guard let existing else {
            try rows.insert(item, owner: owner, date: date)
            if transaction.type != .consumable {
                noteStateFacts(of: owner)
                try markSupersededPeriods(after: transaction, owner: owner)
            }
            try moveNets(replacing: nil, of: nil, with: transaction, owner: owner)
            return .inserted
        }
        let stored = try rows.transaction(in: existing, id: transaction.transactionId)
        guard stored != transaction, transaction.supersedes(stored) else { return .unchanged }
        try rows.replace(item, owner: owner, date: date)
        if transaction.type != .consumable || stored.type != .consumable {
            noteStateFacts(of: owner)
            // The periods this one superseded were judged on its old copy (a refund, an upgrade flag, a chain).
            try rows.clearSupersessions(by: transaction.transactionId)
            if transaction.type != .consumable { try markSupersededPeriods(after: transaction, owner: owner) }
        }
        try moveNets(replacing: stored, of: existing.owner, with: transaction, owner: owner)
        return .updated
    }

    /// Keeps `owner`'s supersession marks right after `transaction` was written for them, by TallyCore's
    /// ``TallyCore/PeriodSupersession/plan(after:unsuperseded:)``.
    ///
    /// The owner's row is locked first (where the store locks rows): two writers judging one customer's marks from
    /// two snapshots could otherwise leave a mark in a group that the other one's write gave a second product.
    private func markSupersededPeriods(after transaction: StoreTransaction, owner: String) throws(Rows.Failure) {
        guard PeriodSupersession.concerns(transaction) else { return }
        if !isThisCustomer(owner) { try rows.prepareCustomer(owner) }  // the poster's was, in store(_:)
        switch PeriodSupersession.plan(after: transaction, unsuperseded: try rows.unsupersededFacts(of: owner)) {
        case .clearAll: try rows.clearSupersessions(of: owner)
        case .mark(let marks): if !marks.isEmpty { try rows.markSuperseded(marks) }
        }
    }

    private mutating func noteStateFacts(of owner: String) {
        if isThisCustomer(owner) { wroteStateFacts = true }
    }

    /// Moves the nets for `incoming` stored for `owner`, replacing `stored` of `previousOwner`, by TallyCore's
    /// ``TallyCore/CurrencyCredits/change(from:to:)``.
    private func moveNets(replacing stored: StoreTransaction?, of previousOwner: String?, with incoming: StoreTransaction,
                          owner: String) throws(Rows.Failure) {
        if let stored, let previousOwner, !previousOwner.hasSameBytes(as: owner) {
            for change in credits.change(from: nil, to: stored) {
                try rows.addToNet(of: previousOwner, currency: change.currency, -change.amount)
            }
            for change in credits.change(from: nil, to: incoming) {
                try rows.addToNet(of: owner, currency: change.currency, change.amount)
            }
            return
        }
        for change in credits.change(from: stored, to: incoming) {
            try rows.addToNet(of: owner, currency: change.currency, change.amount)
        }
    }

    /// Moves a chain and every stored transaction of it to this customer, recording the transfer; nothing when
    /// the chain is unknown or already this customer's. Only restorable chains move (see ``store(_:)``), and they
    /// credit no currency, so no nets change.
    private mutating func moveChain(_ chain: String) throws(Rows.Failure) {
        try rows.lockChains([chain])
        guard let from = try rows.owner(ofChain: chain), !isThisCustomer(from) else { return }
        let recent = try rows.recentTransfers(ofChain: chain, since: date.addingTimeInterval(-TransferLimit.window))
        // A chain at its limit stays (a token's other chains too: ``store(_:)`` refused the posted one already).
        guard recent.reduce(0, { $0 + $1.moves }) < Int64(transferLimit.perChainPerHour) else { return }
        try rows.prepareCustomer(from)  // no writer of `from` judges its marks meanwhile (see markSupersededPeriods)
        // The same two customers swapping the chain again within the hour: their row, rewritten, no new one.
        let pair = recent.last {
            ($0.fromAppUserId.hasSameBytes(as: from) && isThisCustomer($0.toAppUserId))
                || (isThisCustomer($0.fromAppUserId) && $0.toAppUserId.hasSameBytes(as: from))
        }
        try rows.moveChain(chain, from: from, to: appUserId, date: date, repeating: pair?.sequence)
        // Marks were judged on each customer's own groups, which the move changes.
        try rows.clearSupersessions(of: from)
        try rows.clearSupersessions(of: appUserId)
        outcome.transfers.append(OwnershipTransfer(originalTransactionId: chain, fromAppUserId: from,
                                                   toAppUserId: appUserId, date: date))
        if !losers.contains(where: { $0.hasSameBytes(as: from) }) { losers.append(from) }
    }

    /// When the chain may move again, if it moved ``TransferLimit/perChainPerHour`` times within the hour
    /// before ``date``; nil when it may move now. The moves of its oldest recent row leave the window first.
    private func limitedUntil(_ chain: String) throws(Rows.Failure) -> Date? {
        let recent = try rows.recentTransfers(ofChain: chain, since: date.addingTimeInterval(-TransferLimit.window))
        guard recent.reduce(0, { $0 + $1.moves }) >= Int64(transferLimit.perChainPerHour) else { return nil }
        let oldest = recent.map(\.date).min() ?? date
        return oldest.addingTimeInterval(TransferLimit.window)
    }
}
