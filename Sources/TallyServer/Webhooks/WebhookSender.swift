import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TallyCore
import TallyLocking
import TallyServices
import TallyStorage

/// Sends the outbox's deliveries (docs/webhooks.md), as a TallyServices' `Service` inside `tally serve`: a round
/// claims what is due (oldest first, one per customer and endpoint, so each customer's events arrive in order),
/// starts each POST without waiting for it, and waits until a commit, a finished send, or the next delivery's due
/// time wakes it. Sends never run inside a request; a receiver that never answers costs its own deliveries a
/// timeout each and holds one of ``maxInFlight`` slots, never another customer's turn.
public final class WebhookSender: Service {
    /// `webhook sender`.
    public let name = "webhook sender"
    /// Sends under way at once, at most.
    public let maxInFlight: Int
    private let outbox: any WebhookOutbox
    private let store: any CustomerStore
    private let endpoints: [String: WebhookEndpoint]
    private let entitlements: [String: [String]]
    private let log: @Sendable (String) -> Void
    private let metrics: ServerMetrics?
    private let pause = WebhookPause.configured
    private let session: URLSession
    private let queue = BlockingQueue(label: "tally webhook sender")
    private let inFlight = Locked(0)
    /// Signalled by each commit of the store (``wake()``) and each finished send.
    private let wakeup = Wakeup()
    /// The longest wait between rounds: another server's commits (PostgreSQL) and `tally serve webhooks` (any store)
    /// wake nobody here.
    private let pollSeconds: Double

    /// A sender of `outbox`'s deliveries to `settings`' endpoints; `store` gives each event its customer's aliases
    /// and attributes, `entitlements` (`tally.json`) its entitlement ids.
    public init(outbox: any WebhookOutbox, store: any CustomerStore, settings: WebhookSettings,
                entitlements: [String: [String]], shared: Bool, maxInFlight: Int = 16, metrics: ServerMetrics? = nil,
                log: @escaping @Sendable (String) -> Void) {
        self.metrics = metrics
        self.outbox = outbox
        self.store = store
        self.endpoints = Dictionary(settings.endpoints.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        self.entitlements = entitlements
        self.maxInFlight = maxInFlight
        self.log = log
        pollSeconds = shared ? 1 : 5
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = maxInFlight
        configuration.timeoutIntervalForRequest = settings.endpoints.map(\.timeoutSeconds).max() ?? 10
        configuration.timeoutIntervalForResource = configuration.timeoutIntervalForRequest
        session = URLSession(configuration: configuration, delegate: RefusingRedirects(), delegateQueue: nil)
    }

    /// Wakes the sender: a commit may have written events (`WebhookOutbox.routeWebhooks(_:committed:)`).
    /// With every slot sending, a commit wakes nothing: the next finished send does.
    @Sendable public func wake() {
        if inFlight.withLock({ $0 }) < maxInFlight { wakeup.signal() }
    }

    /// The least time between two rounds: under a stream of commits, rounds (each a claim on the store's writer)
    /// come at most this often.
    static let roundSpacingSeconds = 0.01

    /// Rounds until cancelled; then waits for the sends under way (each ends by its timeout).
    public func run() async throws {
        do {
            try outbox.releaseWebhookLeases()
        } catch {
            log("webhooks: releasing this server's leases failed: \(error)")
        }
        defer { session.finishTasksAndInvalidate() }
        do {
            while true {
                try Task.checkCancellation()
                let wait = await queue.run { [self] _ in round() }
                try await Task.sleep(nanoseconds: Self.roundSpacingSeconds.nanosecondsForWaiting)
                try await wakeup.wait(upTo: max(0, wait - Self.roundSpacingSeconds).nanosecondsForWaiting)
            }
        } catch {
            while inFlight.withLock({ $0 }) > 0 { try? await Task.sleep(nanoseconds: 50_000_000) }
            throw error
        }
    }

    /// One round: claims and starts what is due; returns how long to wait before the next.
    func round() -> Double {
        let now = Date()
        do {
            let free = maxInFlight - inFlight.withLock { $0 }
            // Every slot sending: nothing to claim until a send ends (which wakes the sender).
            guard free > 0 else { return pollSeconds }
            let lease = (endpoints.values.map(\.timeoutSeconds).max() ?? 10) + 5
            let claimed = try outbox.claimWebhookDeliveries(now: now, lease: lease, limit: free)
            if let pause, pause == .afterCommit, let first = claimed.first { pause.hold("before sending \(first.eventId)") }
            for delivery in claimed { start(delivery) }
            // Every free slot filled: more may be due, for when a send ends.
            guard claimed.count < free else { return pollSeconds }
            guard let due = try outbox.nextWebhookDueDate() else { return pollSeconds }
            return min(pollSeconds, max(0.005, due.timeIntervalSinceNow))
        } catch {
            log("webhooks: the outbox cannot be read (will try again): \(error)")
            return min(pollSeconds, 1)
        }
    }

    /// Starts one attempt: the event with its customer's aliases, attributes and entitlements, signed, POSTed.
    private func start(_ delivery: WebhookDelivery) {
        guard let endpoint = endpoints[delivery.endpoint] else {
            // An endpoint no longer configured: its deliveries wait for it to come back.
            settle(delivery, .retry(at: Date().addingTimeInterval(3_600), status: nil,
                                    error: "the endpoint is not configured"), endpoint: nil)
            return
        }
        guard let body = body(of: delivery) else {
            settle(delivery, .dead(status: nil, error: "the stored event cannot be read"), endpoint: endpoint)
            return
        }
        let timestamp = Int64(Date().timeIntervalSince1970)
        var request = URLRequest(url: endpoint.url, timeoutInterval: endpoint.timeoutSeconds)
        request.httpMethod = "POST"
        request.httpBody = Data(body)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("tally-webhooks/1", forHTTPHeaderField: "User-Agent")
        request.setValue(delivery.eventId, forHTTPHeaderField: "Tally-Webhook-Id")
        request.setValue(String(timestamp), forHTTPHeaderField: "Tally-Webhook-Timestamp")
        request.setValue(WebhookSignature.header(secret: endpoint.secret, id: delivery.eventId, timestamp: timestamp,
                                                 body: body), forHTTPHeaderField: "Tally-Webhook-Signature")
        inFlight.withLock { $0 += 1 }
        let pause = self.pause
        session.dataTask(with: request) { [self] _, response, error in
            let status = (response as? HTTPURLResponse)?.statusCode
            if pause == .duringSend { pause?.hold("sending \(delivery.eventId)") }
            let result: WebhookAttemptResult
            if let status, (200..<300).contains(status) {
                result = .delivered(status: status)
            } else {
                let reason = status.map { "answered \($0)" } ?? "no answer: \(error.map { "\($0.localizedDescription)" } ?? "none")"
                result = delivery.attempts >= endpoint.retry.attempts
                    ? .dead(status: status, error: reason)
                    : .retry(at: Date().addingTimeInterval(endpoint.retry.delay(afterAttempt: delivery.attempts)),
                             status: status, error: reason)
            }
            settle(delivery, result, endpoint: endpoint)
            inFlight.withLock { $0 -= 1 }
            wakeup.signal()
        }.resume()
    }

    /// Stores an attempt's result (a lost claim is another server's now).
    private func settle(_ delivery: WebhookDelivery, _ result: WebhookAttemptResult, endpoint: WebhookEndpoint?) {
        do {
            try outbox.settleWebhookDelivery(delivery, result, at: Date())
            let counted = switch result {
            case .delivered: "delivered"
            case .retry: "failed"
            case .dead: "dead"
            }
            metrics?.recordWebhookAttempt(result: counted)
            if case .dead(_, let error) = result {
                log("webhooks: \(delivery.eventId) to \(delivery.endpoint) dead-lettered after \(delivery.attempts) attempts: \(error)")
            }
        } catch {
            log("webhooks: the result of \(delivery.eventId) cannot be stored (it will be sent again): \(error)")
        }
    }

    /// The delivery's JSON body: the stored event with the customer's aliases, attributes and entitlement ids as
    /// they are now; nil when the stored event cannot be read.
    func body(of delivery: WebhookDelivery) -> [UInt8]? {
        guard var event = WebhookEvent(json: delivery.body) else { return nil }
        if event.type != .test {
            event.aliases = (try? store.aliases(of: event.appUserId).map(\.alias)) ?? []
            event.attributes = (try? store.attributes(of: event.appUserId)) ?? [:]
        }
        if let product = event.productId {
            event.entitlementIds = entitlements.filter { $0.value.contains(product) }.keys.sorted()
        }
        return event.json
    }
}

/// Follows no redirect: a 3xx is the endpoint's answer (a failed attempt), so a signed event never goes to a URL
/// the configuration does not name.
private final class RefusingRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }
}
