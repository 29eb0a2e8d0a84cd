import Foundation

extension CustomerToken {
    /// The longest token read, in bytes: a real one is a few hundred.
    public static let maximumLength = 8_192

    /// Checks `token` at `now`: a compact JWS whose `alg` is the algorithm of one of `keys` (the one its `kid` names,
    /// else each key of that algorithm without an id), whose signature verifies with it, for `audience`, with a
    /// `sub`, not expired, not issued or valid only in the future beyond `leeway`, and valid for at most
    /// `maximumLifetime` seconds from `iat` (or from `now` without one). The claims, or why the token is refused;
    /// never a crash.
    public static func verify(_ token: String, audience: String, at now: Date, keys: [CustomerTokenKey],
                              maximumLifetime: TimeInterval, leeway: TimeInterval = 60)
        -> Result<CustomerToken, CustomerTokenFailure>
    {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard token.utf8.count <= maximumLength, parts.count == 3 else {
            return .failure(.init(.malformed, "a customer token is a JWT: three base64url parts separated by dots, "
                + "at most \(maximumLength) bytes"))
        }
        guard let headerBytes = Base64URL.decode(parts[0]), let payloadBytes = Base64URL.decode(parts[1]),
              let signature = Base64URL.decode(parts[2]) else {
            return .failure(.init(.malformed, "a part of the customer token is not base64url"))
        }
        guard let header = try? JSONDecoder().decode(Header.self, from: Data(headerBytes)),
              let claims = try? JSONDecoder().decode(Claims.self, from: Data(payloadBytes)) else {
            return .failure(.init(.malformed, "the customer token's header and claims must be JSON objects with "
                + "string alg, kid, typ, sub and aud and whole-second exp, iat and nbf"))
        }
        if let type = header.typ, type != "JWT" {
            return .failure(.init(.malformed, "the customer token's typ must be \"JWT\""))
        }
        guard !header.hasCrit else {
            return .failure(.init(.malformed, "the customer token's header has crit, which this server does not understand"))
        }
        guard let algorithm = header.alg.flatMap(CustomerTokenKey.Algorithm.init(rawValue:)),
              keys.contains(where: { $0.algorithm == algorithm }) else {
            return .failure(.init(.unsupportedAlgorithm, "the customer token's alg is \(header.alg.map { "\"\($0.prefix(16))\"" } ?? "missing"); "
                + "this server checks \(Set(keys.map(\.algorithm.rawValue)).sorted().joined(separator: " or "))"))
        }
        let candidates: [CustomerTokenKey]
        if let keyId = header.kid {
            candidates = keys.filter { $0.algorithm == algorithm && $0.id == keyId }
            guard !candidates.isEmpty else {
                return .failure(.init(.unknownKey, "no \(algorithm.rawValue) customer-token key has the id '\(keyId.prefix(64))'"))
            }
        } else {
            candidates = keys.filter { $0.algorithm == algorithm && $0.id == nil }
            guard !candidates.isEmpty else {
                return .failure(.init(.unknownKey, "the customer token names no kid, and every \(algorithm.rawValue) key has one"))
            }
        }
        let signingInput = Array(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        guard candidates.contains(where: { isValid(signature, over: signingInput, key: $0) }) else {
            return .failure(.init(.badSignature, "the customer token's signature does not verify"))
        }
        return checked(claims, audience: audience, at: now, maximumLifetime: maximumLifetime, leeway: leeway)
    }

    private static func isValid(_ signature: [UInt8], over input: [UInt8], key: CustomerTokenKey) -> Bool {
        switch key.material {
        case .secret(let secret):
            return HMACSHA256.isEqual(HMACSHA256.authenticationCode(for: input, key: secret), signature)
        case .publicKey(let publicKey, _):
            guard signature.count == 64 else { return false }
            return input.withUnsafeBytes { ECDSA.verifyES256(message: $0, rawSignature: signature, key: publicKey) }
        }
    }

    private struct Header: Decodable {
        var alg: String?
        var kid: String?
        var typ: String?
        var hasCrit = false

        enum Key: String, CodingKey { case alg, kid, typ, crit }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            alg = try container.decodeIfPresent(String.self, forKey: .alg)
            kid = try container.decodeIfPresent(String.self, forKey: .kid)
            typ = try container.decodeIfPresent(String.self, forKey: .typ)
            hasCrit = container.contains(.crit)
        }
    }

    /// The claims as sent; a claim of the wrong type fails the decoding (malformed), a missing one is nil. `aud`
    /// may be one string or a list of them (RFC 7519 §4.1.3).
    private struct Claims: Decodable {
        var sub: String?
        var aud: [String]?
        var exp: Int64?
        var iat: Int64?
        var nbf: Int64?

        enum Key: String, CodingKey { case sub, aud, exp, iat, nbf }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            sub = try container.decodeIfPresent(String.self, forKey: .sub)
            if let one = try? container.decodeIfPresent(String.self, forKey: .aud) {
                aud = [one]
            } else {
                aud = try container.decodeIfPresent([String].self, forKey: .aud)
            }
            exp = try container.decodeIfPresent(Int64.self, forKey: .exp)
            iat = try container.decodeIfPresent(Int64.self, forKey: .iat)
            nbf = try container.decodeIfPresent(Int64.self, forKey: .nbf)
        }
    }

    private static func checked(_ claims: Claims, audience: String, at now: Date, maximumLifetime: TimeInterval,
                                leeway: TimeInterval) -> Result<CustomerToken, CustomerTokenFailure> {
        guard let subject = claims.sub, !subject.isEmpty else {
            return .failure(.init(.missingClaim, "the customer token has no sub claim (the appUserId)"))
        }
        guard let audiences = claims.aud else {
            return .failure(.init(.missingClaim, "the customer token has no aud claim (\"\(audience)\")"))
        }
        guard audiences.contains(where: { $0.utf8.elementsEqual(audience.utf8) }) else {
            return .failure(.init(.wrongAudience, "the customer token is not for audience \"\(audience)\""))
        }
        guard let expiry = claims.exp.map(Double.init) else {
            return .failure(.init(.missingClaim, "the customer token has no exp claim in whole seconds"))
        }
        let nowSeconds = now.timeIntervalSince1970
        guard expiry + leeway > nowSeconds else {
            return .failure(.init(.expired, "the customer token expired at \(Int64(expiry))"))
        }
        let issued = claims.iat.map(Double.init)
        if let issued, issued > nowSeconds + leeway {
            return .failure(.init(.notYetValid, "the customer token's iat \(Int64(issued)) is in the future"))
        }
        if let notBefore = claims.nbf.map(Double.init), notBefore > nowSeconds + leeway {
            return .failure(.init(.notYetValid, "the customer token is not valid before \(Int64(notBefore))"))
        }
        guard expiry - min(issued ?? nowSeconds, nowSeconds) <= maximumLifetime + leeway else {
            return .failure(.init(.lifetimeTooLong, "a customer token may be valid for at most "
                + "\(Int64(maximumLifetime)) s; ask the app's backend for shorter-lived ones"))
        }
        return .success(CustomerToken(appUserId: subject, audience: audience,
                                      issuedAt: issued.map(Date.init(timeIntervalSince1970:)),
                                      expiresAt: Date(timeIntervalSince1970: expiry)))
    }
}
