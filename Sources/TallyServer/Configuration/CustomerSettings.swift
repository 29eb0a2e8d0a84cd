import TallyCrypto

/// How customers prove who they are (`customers` in `tally-server.json`, docs/server.md *Customer tokens*).
public struct CustomerSettings: Sendable {
    /// Whether every customer-scoped route refuses a public-key call without a valid customer token for that very
    /// customer (`customers.requireToken`); anonymous ids (`AnonymousCustomerId`) need none.
    public var requireToken = false
    /// The keys customer tokens are checked with (`customers.tokenKeys`): HS256 secrets and ES256 public keys.
    public var tokenKeys: [CustomerTokenKey] = []
    /// The `aud` a customer token must name (`customers.audience`, default `"tally"`).
    public var audience = "tally"
    /// The longest a customer token may be valid, in seconds (`customers.maximumTokenSeconds`, default a day).
    public var maximumTokenSeconds: Int = 86_400

    /// The defaults: no token required, none checked.
    public init() {}
}
