import Testing

/// Every end-to-end suite runs one at a time: each starts its own `tally serve`, and the concurrency
/// and crash suites need the machine to themselves more than they need to overlap.
@Suite(.serialized) enum ServerProcessTests {}

/// Checks that the server still answers `GET /healthz` after `what`.
func expectHealthy(_ client: APIClient, after what: String,
                   sourceLocation: SourceLocation = #_sourceLocation) async {
    let healthy = await client.isHealthy()
    #expect(healthy, "the server no longer answers /healthz after \(what)", sourceLocation: sourceLocation)
}
