import Foundation
import TallyCore

extension Sandbox {
    /// The account's refund requests, oldest first.
    public func refundRequests(account: String = "default") -> [SandboxRefundRequest] {
        accounts[account]?.refundRequests ?? []
    }

    /// The consumption information last received for a transaction, if any.
    public func consumptionInfo(transactionId: String) -> SandboxConsumptionInfo? {
        guard let account = transactionAccounts[transactionId] else { return nil }
        return accounts[account]?.consumption[transactionId]
    }

    /// The customer asks Apple to refund a consumable or auto-renewable transaction: an open request and a
    /// `refundRequested` event (CONSUMPTION_REQUEST, with `reason` as `consumptionRequestReason`).
    public mutating func requestRefund(transactionId: String, reason: String = "OTHER") throws(SandboxError)
        -> SandboxRefundRequest {
        let (account, transaction) = try refundable(transactionId)
        guard SandboxRefundRequest.reasons.contains(reason) else {
            throw SandboxError(.invalidRequest, "reason must be one of \(SandboxRefundRequest.reasons.joined(separator: ", ")), not '\(reason)'")
        }
        guard transaction.type == .consumable || transaction.type == .autoRenewable else {
            throw SandboxError(.invalidRequest, "transaction \(transactionId) is \(transaction.type.rawValue): Apple asks for consumption data (CONSUMPTION_REQUEST) only for consumables and auto-renewable subscriptions; refund it with 'tally sandbox refund'")
        }
        if openRefundRequest(account: account, transactionId: transactionId) != nil {
            throw SandboxError(.alreadyResolved, "transaction \(transactionId) already has an open refund request: decide it with 'tally sandbox refund-request \(transactionId) --decide approve|decline'")
        }
        let request = SandboxRefundRequest(transactionId: transactionId, reason: reason, requestDate: now)
        withAccount(account) { $0.refundRequests.append(request) }
        log(.refundRequested, account: account, transaction: transaction, detail: reason)
        return request
    }

    /// Keeps the consumption information an app's server sent for a transaction (the latest replaces earlier
    /// ones) and logs `consumptionInfoReceived`.
    public mutating func recordConsumption(transactionId: String, _ info: SandboxConsumptionInfo) throws(SandboxError) {
        guard let account = transactionAccounts[transactionId],
              let transaction = accounts[account]?.transaction(transactionId) else { throw unknown(transactionId) }
        withAccount(account) { $0.consumption[transactionId] = info }
        log(.consumptionInfoReceived, account: account, transaction: transaction, detail: "v\(info.version)")
    }

    /// Ends the open refund request of a transaction. With `decision` nil the sandbox decides by the consumption
    /// information received since the request (``SandboxConsumptionInfo/decision``), approving when none came.
    /// Approve refunds it (``refund(transactionId:reason:percentage:)``, REFUND) — prorated when that information
    /// asked for `GRANT_PRORATED`; decline logs `refundDeclined`
    /// (REFUND_DECLINED) and changes nothing else.
    public mutating func decideRefund(transactionId: String, decision: SandboxRefundRequest.Decision?)
        throws(SandboxError) -> SandboxRefundRequest {
        guard let account = transactionAccounts[transactionId],
              let transaction = accounts[account]?.transaction(transactionId) else { throw unknown(transactionId) }
        guard let index = openRefundRequest(account: account, transactionId: transactionId),
              var request = accounts[account]?.refundRequests[index] else {
            throw SandboxError(.invalidRequest, "transaction \(transactionId) has no open refund request: make one with 'tally sandbox refund-request \(transactionId)'")
        }
        let info = accounts[account]?.consumption[transactionId].flatMap { $0.receivedDate >= request.requestDate ? $0 : nil }
        let chosen = decision ?? info?.decision ?? .approve
        switch chosen {
        case .approve:
            _ = try refund(transactionId: transactionId,
                           reason: request.reason == "UNINTENDED_PURCHASE" || request.reason == "OTHER" ? .other : .appIssue,
                           percentage: info.flatMap { proratedPercentage($0, transaction: transaction) })
        case .decline:
            log(.refundDeclined, account: account, transaction: transaction, detail: request.reason)
        }
        request.decision = chosen
        request.decidedDate = now
        request.decidedByConsumptionInfo = decision == nil && info != nil
        let ended = request
        withAccount(account) { $0.refundRequests[index] = ended }
        return ended
    }

    /// Apple reverses a refund it granted (a dispute): a later copy of the transaction without its revocation,
    /// `signedDate` now, delivered again to every device, and a `refundReversed` event (REFUND_REVERSED). A
    /// subscription revoked by the refund is in force again until its expiry (its renewal date is unchanged),
    /// auto-renew staying off.
    public mutating func reverseRefund(transactionId: String) throws(SandboxError) -> StoreTransaction {
        guard let account = transactionAccounts[transactionId],
              var transaction = accounts[account]?.transaction(transactionId) else { throw unknown(transactionId) }
        guard transaction.revocationDate != nil else {
            throw SandboxError(.invalidRequest, "transaction \(transactionId) is not refunded: there is no refund to reverse")
        }
        transaction.revocationDate = nil
        transaction.revocationReason = nil
        transaction.revocationType = nil
        transaction.revocationPercentage = nil
        transaction.resign(at: now)
        let updated = transaction
        let now = self.now
        withAccount(account) { record in
            record.replace(updated)
            if updated.type == .nonConsumable { record.ownedNonConsumables[updated.productId] = updated.transactionId }
            if let group = updated.subscriptionGroupIdentifier, let chain = record.chains[group],
               chain.latestTransactionId == updated.transactionId, chain.phase == .revoked {
                record.chains[group]?.phase = chain.expiresDate > now ? .active : .expired
                record.chains[group]?.renewalInfo.resign(at: now)
            }
        }
        log(.refundReversed, account: account, transaction: updated)
        deliverToAllDevices(transactionId, account: account)
        return updated
    }

    /// The part refunded (milliunits) when the app's server asked for `GRANT_PRORATED`: what was not consumed
    /// (`100000 - consumptionPercentage`), or for a subscription the unused part of its current period, as
    /// Apple derives it from the time elapsed; nil for a full refund.
    func proratedPercentage(_ info: SandboxConsumptionInfo, transaction: StoreTransaction) -> Int? {
        guard info.refundPreference == "GRANT_PRORATED" else { return nil }
        if let consumed = info.consumptionPercentage { return 100_000 - consumed }
        guard let expires = transaction.expiresDate, expires > transaction.purchaseDate else { return nil }
        let left = expires.timeIntervalSince(max(now, transaction.purchaseDate)) / expires.timeIntervalSince(transaction.purchaseDate)
        return min(99_999, max(1, Int((left * 100_000).rounded())))
    }

    private func refundable(_ transactionId: String) throws(SandboxError) -> (String, StoreTransaction) {
        guard let account = transactionAccounts[transactionId],
              let transaction = accounts[account]?.transaction(transactionId) else { throw unknown(transactionId) }
        guard !transaction.isRevoked else {
            throw SandboxError(.alreadyResolved, "transaction '\(transactionId)' was already refunded")
        }
        return (account, transaction)
    }

    private func openRefundRequest(account: String, transactionId: String) -> Int? {
        accounts[account]?.refundRequests.lastIndex { $0.transactionId.hasSameBytes(as: transactionId) && $0.decision == nil }
    }

    func unknown(_ transactionId: String) -> SandboxError {
        SandboxError(.unknownTransaction, "no transaction '\(transactionId)' in this sandbox: list them with 'tally sandbox history --account ACCOUNT'")
    }
}
