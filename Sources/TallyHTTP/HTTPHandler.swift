/// What the server calls for each complete request, on one of its worker threads; it may block (for a
/// database write) but must always return a response.
public typealias HTTPHandler = @Sendable (HTTPRequest) -> HTTPResponse
