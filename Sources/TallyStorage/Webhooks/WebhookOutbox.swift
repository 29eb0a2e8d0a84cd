import Foundation
import TallyCore

/// A store's webhook outbox (docs/webhooks.md): the events its writes made, each written in the same database
/// transaction as the change that made it, with one delivery per endpoint that takes it; the sender's claims and
/// results; and the operations `tally serve webhooks` and the dashboard use.
///
/// Both stores implement it over their own tables (SQLite: one server per file; PostgreSQL: many servers share
/// the outbox, claims take rows with `FOR UPDATE SKIP LOCKED` and hold a lease that expires if the claimer dies).
public protocol WebhookOutbox: AnyObject, Sendable {
    /// The endpoints events are written for from now on (empty, the default, writes no events); `committed` is
    /// called after each commit of this process while any endpoint is routed (the sender's wake-up).
    func routeWebhooks(_ routing: WebhookRouting, committed: (@Sendable () -> Void)?)
    /// The endpoints events are written for.
    var webhookRouting: WebhookRouting { get }
    /// Whether other servers may write and send from the same outbox (PostgreSQL), so this server looks for
    /// their events without being woken.
    var webhookOutboxIsShared: Bool { get }

    /// Claims up to `limit` deliveries due at `now` for `lease` seconds, oldest first, at most one per customer
    /// and endpoint, and none behind an earlier undelivered delivery of the same customer and endpoint (order per
    /// customer); each claim counts as an attempt (a server killed mid-send used one).
    func claimWebhookDeliveries(now: Date, lease: TimeInterval, limit: Int) throws(CustomerStoreError)
        -> [WebhookDelivery]
    /// Stores what became of a claimed attempt; false when the claim had been lost (its lease expired and
    /// another claim took it), and nothing was written.
    @discardableResult
    func settleWebhookDelivery(_ delivery: WebhookDelivery, _ result: WebhookAttemptResult, at date: Date)
        throws(CustomerStoreError) -> Bool
    /// When the next pending delivery falls due (its next attempt or its lease's end); nil when none is pending.
    func nextWebhookDueDate() throws(CustomerStoreError) -> Date?
    /// Ends every lease this store's deliveries hold (a single-server store at start: nobody else sends).
    func releaseWebhookLeases() throws(CustomerStoreError)

    /// Deliveries by `filter`, newest event first, `limit` of them after the cursor `before` (an event
    /// sequence; nil: from the newest).
    func webhookDeliveries(_ filter: WebhookDeliveryFilter, limit: Int, before: Int64?) throws(CustomerStoreError)
        -> [WebhookDeliveryRecord]
    /// Makes every undelivered delivery (pending or dead) of the event `eventId` due at `now`, with its attempts
    /// counted from zero again; how many deliveries it changed (0: no such undelivered event).
    func retryWebhookEvent(_ eventId: String, at now: Date) throws(CustomerStoreError) -> Int
    /// Queues again, due at `now` and with the same ids, the deliveries of every event written at or after
    /// `since`, delivered or not; how many deliveries it queued.
    func replayWebhookEvents(since: Date, at now: Date) throws(CustomerStoreError) -> Int
    /// Writes `event` (a `TEST`) to the outbox for every configured endpoint, due now; how many deliveries.
    func enqueueWebhookEvent(_ event: WebhookEvent, at now: Date) throws(CustomerStoreError) -> Int
    /// The outbox's counts, and the age of its oldest pending delivery at `now`.
    func webhookOutboxStats(at now: Date) throws(CustomerStoreError) -> WebhookOutboxStats
}
