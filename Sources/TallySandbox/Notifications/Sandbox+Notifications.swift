import TallyCore

extension Sandbox {
    /// What the notification for `event` is about, read from the sandbox as it is now (call it right after the
    /// event, before later events change the copies): the event's transaction — for an event about a chain
    /// without one of its own (a failed renewal, an expiry, a changed preference) the chain's latest
    /// transaction — and the chain's renewal info.
    public func notificationSubject(for event: SandboxEvent) -> (transaction: StoreTransaction?, renewalInfo: RenewalInfo?) {
        guard let record = accounts[event.account] else { return (nil, nil) }
        let chain = event.originalTransactionId.flatMap { original in
            record.chains.values.first { $0.originalTransactionId == original }
        }
        let transaction = event.transactionId.flatMap { record.transaction($0) }
            ?? chain.flatMap { record.transaction($0.latestTransactionId) }
        return (transaction, chain?.renewalInfo)
    }
}
