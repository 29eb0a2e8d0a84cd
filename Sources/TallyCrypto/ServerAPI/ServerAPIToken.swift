import Foundation

/// The JSON Web Token that authorizes one call to the App Store Server API: ES256 over P-256, header
/// `{"alg":"ES256","kid":…,"typ":"JWT"}`, claims `iss`, `iat` (optional: Apple's own library omits it), `exp`,
/// `aud` `appstoreconnect-v1` and `bid` (../shared/docs/app-store-server-api.md §2).
///
/// One type for both sides: an entitlement server signs it to call the API, the simulated App Store checks it.
public struct ServerAPIToken: Sendable, Hashable {
    /// The only audience Apple accepts.
    public static let audience = "appstoreconnect-v1"
    /// A token is valid for at most an hour after its `iat` (or, without `iat`, after the moment it is checked).
    public static let maximumLifetime: TimeInterval = 3_600

    /// The in-app purchase key's id from App Store Connect (`kid`).
    public var keyId: String
    /// The issuer id from App Store Connect's Keys page (`iss`).
    public var issuerId: String
    /// The app the call is about (`bid`), case-sensitive.
    public var bundleId: String
    /// When the token was issued (`iat`, whole seconds); nil to leave the claim out, as Apple's library does.
    public var issuedAt: Date?
    /// When the token stops being valid (`exp`, whole seconds).
    public var expiresAt: Date

    /// Creates the claims of a token.
    public init(keyId: String, issuerId: String, bundleId: String, issuedAt: Date?, expiresAt: Date) {
        self.keyId = keyId
        self.issuerId = issuerId
        self.bundleId = bundleId
        self.issuedAt = issuedAt.map { Date(timeIntervalSince1970: $0.timeIntervalSince1970.rounded(.down)) }
        self.expiresAt = Date(timeIntervalSince1970: expiresAt.timeIntervalSince1970.rounded(.down))
    }

    /// A token issued at `now` that expires five minutes later (the lifetime Apple's library uses).
    public static func fresh(keyId: String, issuerId: String, bundleId: String, now: Date = Date()) -> ServerAPIToken {
        ServerAPIToken(keyId: keyId, issuerId: issuerId, bundleId: bundleId, issuedAt: now,
                       expiresAt: now.addingTimeInterval(300))
    }

    /// The compact JWT, signed with the in-app purchase `key` (P-256).
    public func signed(with key: PrivateKey) throws(CryptoError) -> String {
        let header = #"{"alg":"ES256","kid":"# + Self.jsonString(keyId) + #","typ":"JWT"}"#
        var claims = #"{"iss":"# + Self.jsonString(issuerId)
        if let issuedAt { claims += #","iat":"# + String(Int64(issuedAt.timeIntervalSince1970)) }
        claims += #","exp":"# + String(Int64(expiresAt.timeIntervalSince1970))
        claims += #","aud":""# + Self.audience + #"","bid":"# + Self.jsonString(bundleId) + "}"
        return try JWSSigner(key: key, chain: []).signed(payload: Array(claims.utf8), header: header)
    }

    /// A JSON string literal of `text` (quotes, backslashes and control characters escaped).
    static func jsonString(_ text: String) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes]),
              let array = String(data: data, encoding: .utf8) else { return "\"\"" }
        return String(array.dropFirst().dropLast())
    }
}
