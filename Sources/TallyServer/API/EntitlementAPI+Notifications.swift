import Foundation
import TallyCore
import TallyHTTP
import TallyStorage
import TallyVerify

extension EntitlementAPI {
    /// `POST /v1/notifications/apple` (`notifications.path`) `{"signedPayload":"<JWS>"}` from the App Store:
    /// verified (nested signed data too), then stored and applied in one durable write before the 200. A
    /// retry (same `notificationUUID`) answers 200 and changes nothing; a store failure answers 503, so Apple
    /// sends it again.
    ///
    /// The route has no key: a body it refuses (4xx) costs its client address a token of
    /// ``RateCharge/unverifiedNotification(from:limits:)``, and while that bucket is empty the route answers 429
    /// before reading the body, so a flood of forged bodies cannot keep the CPU verifying.
    func postNotification(_ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let charge = RateCharge.unverifiedNotification(from: request.clientNetwork, limits: configuration.limits)
        if let wait = limiter.wait(charge.buckets) { throw .rateLimited(retryAfter: wait, for: charge.scope) }
        do {
            let signedPayload = try tokenField(request, named: "signedPayload")
            let (stored, outcome) = try ingestNotification(signedPayload)
            return APIResponse.json(JSONWriter.object { writer in
                writer.field("notificationUUID", stored.notificationUUID)
                writer.field("result", outcome.result.rawValue)
            })
        } catch {
            if (400..<500).contains(error.status) { _ = limiter.acquire(charge.buckets) }
            throw error
        }
    }

    /// Verifies `signedPayload`, stores and applies it in one durable write, clears the cached state of the
    /// customers it changed and counts it: the one path for live notifications and the back-filled ones.
    func ingestNotification(_ signedPayload: String) throws(APIError) -> (StoredNotification, NotificationOutcome) {
        let notification = try verified(verifier.verifyNotification(signedPayload), kind: "notification")
        let stored = try Self.storedNotification(notification, signedPayload: signedPayload)
        let now = clock.now()
        let outcome: NotificationOutcome
        do {
            outcome = try storeCall { () throws(CustomerStoreError) in
                try noteWrite { () throws(CustomerStoreError) in try store.recordNotification(stored, at: now) }
            }
        } catch {
            metrics.recordNotification(type: stored.notificationType, result: "failed")
            throw error
        }
        for customer in outcome.customersChanged { cache.invalidate(customer) }
        if stored.notificationType == NotificationType.consumptionRequest.rawValue, outcome.result != .duplicate {
            consumptionRequestArrived.signal()
        }
        metrics.recordNotification(type: stored.notificationType, result: outcome.result.rawValue)
        return (stored, outcome)
    }

    /// What the store keeps of a verified notification; one without the fields every notification has
    /// (`notificationUUID`, `notificationType`, `signedDate`) is 422 `invalid_notification`.
    static func storedNotification(_ notification: ServerNotification, signedPayload: String) throws(APIError)
        -> StoredNotification
    {
        guard let uuid = notification.notificationUUID, !uuid.isEmpty else {
            throw .invalidNotification("the notification has no notificationUUID, so a retry could not be recognised")
        }
        guard let type = notification.notificationType, !type.rawValue.isEmpty else {
            throw .invalidNotification("the notification has no notificationType")
        }
        guard let signedDate = notification.signedDate else {
            throw .invalidNotification("the notification has no signedDate, so it cannot be ordered")
        }
        let applies = NotificationEffect.appliesFacts(type)
        let data = notification.data
        return StoredNotification(
            notificationUUID: uuid, notificationType: type.rawValue, subtype: notification.subtype?.rawValue,
            signedDate: signedDate, signedPayload: signedPayload,
            transaction: applies ? data?.transactionInfo.map {
                StoredTransaction(transaction: $0, source: .signedTransaction, signedTransaction: data?.signedTransactionInfo)
            } : nil,
            renewalInfo: applies ? data?.renewalInfo : nil,
            signedRenewalInfo: applies ? data?.signedRenewalInfo : nil, appliesFacts: applies)
    }

    /// Seconds since the oldest pending notification was received, for `/metrics`; 0 when none waits, nil
    /// when the store cannot say (the gauge is then left out).
    func pendingNotificationAge() -> Double? {
        let oldest: Date?
        do {
            oldest = try store.oldestPendingNotificationDate()
        } catch {
            return nil
        }
        guard let oldest else { return 0 }
        return max(0, clock.now().timeIntervalSince(oldest))
    }
}

extension APIError {
    /// 422 `invalid_notification`: a verified notification lacking a field every notification has.
    static func invalidNotification(_ message: String) -> APIError { APIError(422, "invalid_notification", message) }
}
