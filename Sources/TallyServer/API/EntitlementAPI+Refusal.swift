import TallyHTTP

extension EntitlementAPI {
    /// The answer to a request the HTTP server refused from its head (`HTTPRefusal`), in the API's error shape
    /// and counted in the metrics. A body too large for a path no route has, or for a method the route does not
    /// answer, gets the 404 or 405 it would have got with no body.
    public func refuse(_ request: HTTPRequest, _ refusal: HTTPRefusal) -> HTTPResponse {
        let match: RouteMatch?
        var pathError: APIError?
        do {
            match = try Router.match(request.path, method: request.method, notificationsPath: configuration.notifications.path)
        } catch {
            match = nil
            pathError = error
        }
        let template = match?.route.template ?? "unmatched"
        let error: APIError
        switch refusal {
        case .bodyTooLarge(let limit):
            if let pathError {
                error = pathError
            } else if let route = match?.route {
                error = route.allowedMethods.contains(request.method)
                    ? (limit == 0 ? .bodyNotAccepted(request.method) : .bodyTooLarge(limit))
                    : .methodNotAllowed(request.method, allowed: route.pathMethods)
            } else {
                error = .notFound
            }
        case .malformedRequest(let message): error = .malformedRequest(message)
        case .unsupportedTransferCoding(let message): error = .unsupportedTransferCoding(message)
        }
        let response = error.response
        metrics.recordRequest(route: template, method: Self.methodLabel(request.method), status: response.status,
                              seconds: 0)
        return response
    }
}

extension APIError {
    /// 400 `malformed_request`: the request's head frames its body ambiguously (docs/server.md, *HTTP*).
    static func malformedRequest(_ message: String) -> APIError { APIError(400, "malformed_request", message) }
    /// 501 `unsupported_transfer_coding`: a `Transfer-Encoding` other than `chunked`.
    static func unsupportedTransferCoding(_ message: String) -> APIError {
        APIError(501, "unsupported_transfer_coding", message)
    }
    /// 413 `body_too_large` on a route that takes no body.
    static func bodyNotAccepted(_ method: String) -> APIError {
        APIError(413, "body_too_large", "\(method) on this route takes no body")
    }
}
