import TallyHTTP

/// A request's method and the path segments after `/inApps/`, matched in ``AppStoreServerAPI``'s router by
/// patterns such as `"PUT v1/transactions/*/appAccountToken"` (`*`: any one segment).
struct APIRoute {
    /// The HTTP method.
    var method: String
    /// The segments after `/inApps/`, percent-decoded ("" for one that does not decode).
    var segments: [String]

    /// The route of `request`; nil when the path does not start `/inApps/` ("/inApps" is case-sensitive).
    init?(_ request: HTTPRequest) {
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 3, parts[0].isEmpty, parts[1] == "inApps" else { return nil }
        method = request.method
        segments = parts.dropFirst(2).map { HTTPRequest.decodePathSegment($0) ?? "" }
    }

    /// The segment at `index` (0 is the version).
    subscript(index: Int) -> String { index < segments.count ? segments[index] : "" }

    /// Whether `route` matches `pattern`, "METHOD seg/seg/*".
    static func ~= (pattern: String, route: APIRoute) -> Bool {
        let halves = pattern.split(separator: " ", maxSplits: 1)
        guard halves.count == 2, halves[0] == route.method else { return false }
        let expected = halves[1].split(separator: "/", omittingEmptySubsequences: false)
        guard expected.count == route.segments.count else { return false }
        return zip(expected, route.segments).allSatisfy { want, have in
            want == "*" || want == have
        }
    }
}
