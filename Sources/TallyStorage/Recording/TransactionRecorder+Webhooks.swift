import Foundation
import TallyCore

extension TransactionRecorder {
    /// The latest other transaction of `transaction`'s chain stored for `owner` and not superseded, for telling a
    /// renewal from a product change; nil when webhooks are off (nothing is read) or the chain has none.
    func previousInChain(of transaction: StoreTransaction, owner: String) throws(Rows.Failure) -> StoreTransaction? {
        guard rows.webhooks.isEnabled, transaction.type == .autoRenewable else { return nil }
        return try rows.unsupersededFacts(of: owner)
            .filter {
                $0.originalTransactionId.hasSameBytes(as: transaction.originalTransactionId)
                    && !$0.transactionId.hasSameBytes(as: transaction.transactionId)
                    && $0.purchaseDate <= transaction.purchaseDate
            }
            .max { $0.purchaseDate < $1.purchaseDate }
    }

    /// Writes the events of storing `transaction` for `owner` (``TallyCore/WebhookEventRules``) to the outbox, in
    /// this write: the nets moved as ``CurrencyCredits/change(from:to:)`` says for the owner.
    func emitEvents(storing transaction: StoreTransaction, replacing stored: StoreTransaction?,
                    previous: StoreTransaction?, owner: String) throws(Rows.Failure) {
        guard rows.webhooks.isEnabled else { return }
        let events = WebhookEventRules.events(storing: transaction, replacing: stored, previous: previous,
                                              credits: credits.change(from: stored, to: transaction), owner: owner,
                                              at: date, makeId: WebhookEventId.make)
        try rows.emit(events, date: date)
    }

    /// Writes the `TRANSFER` event of `chain` moving from `from` to this recorder's customer.
    func emitTransfer(of chain: String, from: String) throws(Rows.Failure) {
        guard rows.webhooks.isEnabled else { return }
        let latest = try rows.unsupersededFacts(of: appUserId)
            .filter { $0.originalTransactionId.hasSameBytes(as: chain) }
            .max { $0.purchaseDate < $1.purchaseDate }
        try rows.emit([WebhookEventRules.transfer(chain: chain, from: from, to: appUserId, latest: latest, at: date,
                                                  id: WebhookEventId.make())], date: date)
    }
}

/// How the server names a webhook event: `evt_` and a UUIDv7 (RFC 9562: the Unix time in milliseconds, then 74
/// random bits), written once with the event and never again. Time-ordered, so each new id lands at the end of the
/// outbox's unique index instead of on a random page of it (a random UUIDv4 dirtied one page per event per commit).
public enum WebhookEventId {
    /// A new id.
    @Sendable public static func make() -> String {
        make(milliseconds: UInt64(max(0, Date().timeIntervalSince1970 * 1_000)))
    }

    /// The id for `milliseconds` since 1970 and fresh random bits.
    static func make(milliseconds: UInt64) -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: milliseconds >> (8 * (5 - index))) }
        bytes[6] = (bytes[6] & 0x0F) | 0x70  // version 7
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 9562 variant
        let uuid = UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                               bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
        return "evt_" + uuid.uuidString.lowercased()
    }
}

extension TransactionRows {
    /// Writes each of `events` to the outbox with a delivery for every endpoint that takes its type; nothing for
    /// an event no endpoint takes.
    public func emit(_ events: [WebhookEvent], date: Date) throws(Failure) {
        for event in events {
            let endpoints = webhooks.endpoints(for: event.type)
            if !endpoints.isEmpty { try enqueue(event, endpoints: endpoints, date: date) }
        }
    }
}
