import Foundation


/// The URL of a customer's route on `tally serve` (docs/server.md): `{server}/v1/customers/{appUserId}[/{path…}]`,
/// each id percent-encoded as one path segment. The one place the engine's server link and the tools build it.
public enum CustomerRoute {
    /// The URL for `appUserId` (and each segment of `path`, encoded the same way) under `server`; nil when an id
    /// cannot be encoded or the result is no URL. Trailing slashes of `server` are dropped.
    public static func url(server: URL, appUserId: String, path: [String] = []) -> URL? {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/;?#%")
        var segments: [String] = []
        for segment in [appUserId] + path {
            guard let encoded = segment.addingPercentEncoding(withAllowedCharacters: allowed) else { return nil }
            segments.append(encoded)
        }
        return url(server: server, route: "/v1/customers/" + segments.joined(separator: "/"))
    }

    /// The URL of `route` (a path from `/`, already encoded, such as `/v1/offerings`) under `server`, whose trailing
    /// slashes are dropped; nil when the result is no URL.
    public static func url(server: URL, route: String) -> URL? {
        var base = server.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        return URL(string: base + route)
    }
}
