import Foundation
import TallyHTTP
import TallyStorage

extension APIError {
    static func malformedJSON(_ message: String) -> APIError { APIError(400, "malformed_json", message) }
    static func jsonTooDeep(_ message: String) -> APIError { APIError(400, "json_too_deep", message) }
    static func invalidRequest(_ message: String) -> APIError { APIError(400, "invalid_request", message) }
    static func spendIdTooLong(_ message: String) -> APIError { APIError(400, "spend_id_too_long", message) }
    static func jsonTooManyElements(_ message: String) -> APIError { APIError(400, "json_too_many_elements", message) }
    static func invalidAmount(_ message: String) -> APIError { APIError(400, "invalid_amount", message) }
    static let unauthorized = APIError(
        401, "unauthorized", "send a configured key as 'Authorization: Bearer <key>'",
        headers: [HTTPResponse.Field("WWW-Authenticate", "Bearer")])
    static let forbidden = APIError(403, "forbidden", "this key's role may not use this route (a public key: no spends or history; a dashboard key: reads only)")
    static func offerNotAllowed(_ offerIdentifier: String) -> APIError {
        APIError(403, "offer_not_allowed", "offers.promotional in tally-server.json does not list the offer '\(offerIdentifier)'")
    }
    static func offerNotEligible(_ message: String) -> APIError { APIError(403, "offer_not_eligible", message) }
    static func invalidOffer(_ message: String) -> APIError { APIError(422, "invalid_offer", message) }
    static let notFound = APIError(404, "not_found", "no such route; see docs/server.md for the API")
    static func unknownCurrency(_ currency: String, known: [String]) -> APIError {
        APIError(404, "unknown_currency", "tally.json defines no currency '\(currency)' (currencies: "
                 + "\(known.isEmpty ? "none" : known.joined(separator: ", ")))")
    }
    static func methodNotAllowed(_ method: String, allowed: [String]) -> APIError {
        APIError(405, "method_not_allowed", "\(method) is not allowed here; use \(allowed.joined(separator: " or "))",
                 headers: [HTTPResponse.Field("Allow", allowed.joined(separator: ", "))])
    }
    static func insufficientBalance(_ balance: Decimal, _ message: String) -> APIError {
        APIError(409, "insufficient_balance", message, detail: .balance(balance))
    }
    static func conflictingId(_ message: String) -> APIError { APIError(409, "conflicting_id", message) }
    static let preconditionRequired = APIError(
        428, "precondition_required", "If-Match is required: the version this change follows, in quotes, as the ETag of "
            + "GET /v1/offerings/document gives it (\"3\"); a change to a version you did not read is refused")
    static func versionConflict(current: Int64) -> APIError {
        APIError(412, "version_conflict", "the live offerings version is \(current); read it (GET /v1/offerings/document), "
                 + "apply your change to it, and send it with If-Match: \"\(current)\"")
    }
    static func invalidOfferings(_ message: String) -> APIError { APIError(422, "invalid_offerings", message) }
    static let ownedByAnotherCustomer = APIError(
        409, "owned_by_another_customer",
        "every posted transaction belongs to another customer, and this server keeps ownership")
    static func bodyTooLarge(_ limit: Int) -> APIError {
        APIError(413, "body_too_large", "the body is larger than \(limit) bytes")
    }
    static func verificationFailed(_ reason: String, _ detail: String) -> APIError {
        APIError(422, "verification_failed", detail, detail: .reason(reason))
    }
    static func rateLimited(retryAfter seconds: Int, for scope: String) -> APIError {
        APIError(429, "rate_limited", "too many requests for \(scope); retry in \(seconds) s",
                 headers: [HTTPResponse.Field("Retry-After", String(seconds))])
    }
    /// 429 `transfer_limited`: the chain moved `TransferLimit.perChainPerHour` times within the hour.
    static func transferLimited(retryAfter seconds: Int, limit: Int) -> APIError {
        APIError(429, "transfer_limited", "this purchase's chain changed customers \(limit) times within the hour "
                 + "(transfersPerChainPerHour); it stays with its owner; retry in \(seconds) s",
                 headers: [HTTPResponse.Field("Retry-After", String(seconds))])
    }
    /// Seconds a refused reconciliation is told to wait (``reconcileBusy(limit:)``).
    static let reconcileRetryAfterSeconds = 5
    static func reconcileBusy(limit: Int) -> APIError {
        APIError(503, "reconcile_busy", "\(limit) reconciliations are running (limits.maxConcurrentReconciles); "
                 + "nothing was done, retry in \(reconcileRetryAfterSeconds) s",
                 headers: [HTTPResponse.Field("Retry-After", String(reconcileRetryAfterSeconds))])
    }
    static let notReady = APIError(503, "not_ready", "writes to the store fail (a full disk, a read-only file "
                                   + "system, a lock); the server's log says why; it recovers by itself")
    /// What a failed store call answers: 422 `too_large_for_store` when a value is larger than the store can
    /// keep (nothing was stored, and retrying cannot help); otherwise 503 `unavailable`, so the client retries.
    /// The store's own message (paths, SQLite text) stays on the server; the client learns only the kind.
    static func storeFailure(_ error: CustomerStoreError) -> APIError {
        if error.reason == .tooLarge {
            var answer = APIError(422, "too_large_for_store", "a value of this request (an id) is longer than this "
                                  + "server's store can keep; nothing was stored")
            answer.logMessage = "store tooLarge: \(error.message)"
            return answer
        }
        var answer = APIError(503, "unavailable", "the store is \(error.reason == .busy ? "busy" : "unavailable"); "
                              + "nothing was acknowledged, retry")
        answer.logMessage = "store \(error.reason.rawValue): \(error.message)"
        return answer
    }
}

extension APIError {
    /// 422: the alias is not an anonymous id, or the customer given one is itself anonymous.
    static func invalidAlias(_ message: String) -> APIError { APIError(422, "invalid_alias", message) }
    /// 409: the anonymous id is already an alias of another customer (which is not named).
    static let aliasConflict = APIError(
        409, "alias_conflict", "this anonymous id is already an alias of another customer; an alias is for good")
    /// 422: an attribute breaks a bound (the message names its key).
    static func invalidAttributes(_ message: String) -> APIError { APIError(422, "invalid_attributes", message) }
}
