import Foundation
import TallyCore
import TallyHTTP
@testable import TallyServer

/// A whole request to one of ``FuzzServer``'s APIs (routing, keys, body, verification, the SQLite store, the
/// cache), checked against docs/server.md: every status is a documented one, every error body is
/// `{"error":{"code":…,"message":…}}` with the code its status documents, and the headers errors promise.
enum APITarget {
    /// Documented error codes by status.
    static let codes: [Int: Set<String>] = [
        400: ["malformed_request", "malformed_json", "json_too_deep", "json_too_many_elements", "invalid_request", "invalid_amount",
              "spend_id_too_long"],
        401: ["unauthorized", "customer_token_required", "invalid_customer_token"],
        403: ["forbidden", "customer_token_mismatch", "offer_not_allowed", "offer_not_eligible"], 404: ["not_found", "unknown_currency", "unknown_version"],
        412: ["version_conflict"], 428: ["precondition_required"],
        405: ["method_not_allowed"],
        409: ["insufficient_balance", "conflicting_id", "owned_by_another_customer", "not_configured",
              "nothing_to_reconcile", "alias_conflict"],
        502: ["app_store_unavailable", "app_store_unauthorized", "app_store_unverifiable"],
        413: ["body_too_large"], 422: ["verification_failed", "invalid_offerings", "invalid_alias", "invalid_attributes", "invalid_offer"], 429: ["rate_limited", "transfer_limited"], 501: ["unsupported_transfer_coding", "not_implemented"],
        503: ["unavailable", "not_ready", "reconcile_busy"],
    ]

    static func run(_ bytes: [UInt8], api: EntitlementAPI) {
        let request = FuzzRequest.decode(bytes)
        // The HTTP server answers a body above its route's limit from the head, without reading it, through
        // `refuse` (a route that takes no body, an unknown path or a method the route does not answer: limit 0).
        let limit = Router.maxBodyBytes(method: request.method, path: request.path, limits: api.configuration.limits)
        let response = request.body.count > limit
            ? api.refuse(request, .bodyTooLarge(limit: limit)) : api.handle(request)
        if trace {
            FileHandle.standardError.write(Data("\(request.method) \(request.path.prefix(80)) → \(response.status) "
                .utf8 + response.body.prefix(300) + Array("\n".utf8)))
        }
        check(response, for: request, limits: api.configuration.limits)
        checkCacheInvalidated(after: response, for: request, api: api)
    }

    /// After a write answered 200, `GET /v1/customers/{id}` (served from the cache) shows the state the
    /// write answered with: the write invalidated the cache before it was acknowledged.
    static func checkCacheInvalidated(after response: HTTPResponse, for request: HTTPRequest, api: EntitlementAPI) {
        guard response.status == 200, request.method == "POST",
              let written = jsonObject(response.body)?["customer"] as? NSDictionary,
              let match = try? Router.match(request.path) else { return }
        let path = "/v1/customers/" + RoutingTarget.percentEncoded(match.appUserId)
        let read = api.handle(HTTPRequest(method: "GET", path: path,
                                          headers: ["authorization": "Bearer \(FuzzServer.secretKey)"]))
        let cached = jsonObject(read.body)?["customer"] as? NSDictionary
        require(read.status == 200 && cached == written,
                "GET \(path.prefix(80)) after a write → \(read.status): the cache shows another state")
    }

    /// `TALLY_FUZZ_TRACE=1` prints each request's status and the start of its body (to read a seed's path).
    static let trace = ProcessInfo.processInfo.environment["TALLY_FUZZ_TRACE"] == "1"

    static func check(_ response: HTTPResponse, for request: HTTPRequest, limits: ServerLimits) {
        let where_ = "\(request.method) \(request.path.prefix(80)) → \(response.status)"
        if response.status == 200 { return checkSuccess(response, for: request, where_) }
        if response.status == 304 {
            // Only the offerings answer is conditional: no body, and the ETag the condition named.
            return require(request.path == "/v1/offerings" && response.body.isEmpty
                           && response.headers.contains { $0.name == "ETag" } && request.header("if-none-match") != nil,
                           "\(where_): a 304 that no If-None-Match on GET /v1/offerings asked for")
        }
        guard let allowed = codes[response.status] else {
            return require(false, "\(where_): undocumented status")
        }
        guard let object = jsonObject(response.body), object.count == 1,
              let error = object["error"] as? [String: Any],
              let code = error["code"] as? String, error["message"] is String else {
            return require(false, "\(where_): not the error JSON: \(String(decoding: response.body.prefix(200), as: UTF8.self))")
        }
        require(allowed.contains(code), "\(where_): code \(code) is not documented for this status")
        let names = Set(response.headers.map { $0.name.lowercased() })
        switch code {
        case "unauthorized": require(names.contains("www-authenticate"), "\(where_): no WWW-Authenticate")
        case "method_not_allowed": require(names.contains("allow"), "\(where_): no Allow")
        case "rate_limited", "transfer_limited", "reconcile_busy":
            require(names.contains("retry-after"), "\(where_): no Retry-After")
        case "customer_token_required", "invalid_customer_token":
            require(names.contains("www-authenticate"), "\(where_): no WWW-Authenticate")
        case "verification_failed": require(error["reason"] is String, "\(where_): no reason")
        case "insufficient_balance": require(error["balance"] is NSNumber, "\(where_): no balance")
        case "body_too_large":
            let limit = Router.maxBodyBytes(method: request.method, path: request.path, limits: limits)
            require(request.body.count > limit, "\(where_): a body within its route's limit refused")
        default: break
        }
    }

    /// A 200 went to a request with the key its route needs, and its JSON is about the customer in the path:
    /// no negative balance, documented outcomes.
    static func checkSuccess(_ response: HTTPResponse, for request: HTTPRequest, _ where_: String) {
        guard let match = try? Router.match(request.path) else {
            return require(false, "\(where_): 200 for a path no route has")
        }
        require(match.route.allowedMethods.contains(request.method), "\(where_): 200 for the wrong method")
        if match.route == .openAPI {
            // The bundled description: YAML, not JSON.
            return require(response.headers.contains { $0.name == "Content-Type" && $0.value == "application/yaml" }
                           && response.body.starts(with: Array("openapi: 3.1".utf8)), "\(where_): not the OpenAPI YAML")
        }
        if match.route == .metrics || match.route == .dashboardFile { return }  // text, HTML, CSS, JavaScript
        guard let object = jsonObject(response.body) else { return require(false, "\(where_): the body is not JSON") }
        guard let role = match.route.role else { return }
        let token = request.bearerToken
        // The offer routes answer the public key only with a customer token (docs/server.md, *Offers*).
        let tokenStandsIn = match.route.takesCustomerToken && token == FuzzServer.publicKey
            && request.header(CustomerTokenCheck.headerName) != nil
        require(token == FuzzServer.secretKey || (role == .public && token == FuzzServer.publicKey) || tokenStandsIn,
                "\(where_): answered without the \(role) key")
        if match.route == .attributes, request.method != "POST" {
            require(token == FuzzServer.secretKey, "\(where_): attributes read without the secret key")
        }
        if let customer = object["customer"] as? [String: Any] {
            // An anonymous id aliased to a customer answers that customer's state.
            require(customer["appUserId"] as? String == match.appUserId || AnonymousCustomerId.isAnonymous(match.appUserId),
                    "\(where_): another customer's state")
            let balances = customer["balances"] as? [String: NSNumber] ?? [:]
            require(balances.values.allSatisfy { $0.doubleValue >= 0 }, "\(where_): a negative balance \(balances)")
        } else {
            require([.history, .accountToken, .aliases, .attributes].contains(match.route) || match.route.role == .dashboard,
                    "\(where_): no customer")
        }
        if let spend = object["spend"] as? [String: Any] {
            require(spend["currency"] as? String == match.currency, "\(where_): spent another currency")
            require((spend["amount"] as? NSNumber)?.doubleValue ?? 0 > 0, "\(where_): spent a non-positive amount")
            require(["recorded", "duplicate"].contains(spend["outcome"] as? String), "\(where_): spend outcome")
        }
        if let posted = object["transaction"] as? [String: Any] {
            require(["inserted", "updated", "unchanged", "transferred", "kept", "future"].contains(posted["outcome"] as? String),
                    "\(where_): transaction outcome")
        }
    }

    /// The body as a JSON object, or nil.
    static func jsonObject(_ body: [UInt8]) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
    }
}
