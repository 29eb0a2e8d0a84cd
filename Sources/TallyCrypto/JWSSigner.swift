import Foundation

/// Signs payloads as compact ES256 JWS with an `x5c` chain, the form the App Store uses.
/// For tests and simulations: the sandbox signs data that Tally's verifier checks like Apple's.
public struct JWSSigner: Sendable {
    /// The P-256 signing key (the leaf's key).
    public let key: PrivateKey
    /// The `x5c` chain, leaf first; empty for no `x5c` header (StoreKit-testing style data).
    public let chain: [Certificate]
    /// ``headerJSON`` base64url-encoded, computed once.
    private let headerSegment: String

    /// Creates a signer.
    public init(key: PrivateKey, chain: [Certificate]) {
        self.key = key
        self.chain = chain
        headerSegment = Base64URL.encode(Array(Self.header(chain).utf8))
    }

    /// The protected header: `{"alg":"ES256","x5c":[...]}` (no `x5c` when the chain is empty).
    public var headerJSON: String { Self.header(chain) }

    private static func header(_ chain: [Certificate]) -> String {
        guard !chain.isEmpty else { return #"{"alg":"ES256"}"# }
        let certificates = chain.map { "\"\(Data($0.der).base64EncodedString())\"" }.joined(separator: ",")
        return #"{"alg":"ES256","x5c":["# + certificates + "]}"
    }

    /// Signs `payload` bytes under `header` (default ``headerJSON``); the error carries OpenSSL's reason.
    public func signed(payload: some Collection<UInt8>, header: String? = nil) throws(CryptoError) -> String {
        let headerPart = header.map { Base64URL.encode(Array($0.utf8)) } ?? headerSegment
        let signingInput = headerPart + "." + Base64URL.encode(payload)
        let der = try key.signature(digest: ECDSA.sha256(Array(signingInput.utf8)))
        let raw = try CryptoError.require(ECDSA.rawSignature(fromDER: der), "d2i_ECDSA_SIG", "ES256 signature")
        return signingInput + "." + Base64URL.encode(raw)
    }

    /// Signs `payload` bytes under `header` (default ``headerJSON``); nil if OpenSSL cannot sign.
    public func sign(payload: some Collection<UInt8>, header: String? = nil) -> String? {
        try? signed(payload: payload, header: header)
    }

    /// Signs a JSON text payload.
    public func sign(json: String, header: String? = nil) -> String? {
        sign(payload: Array(json.utf8), header: header)
    }

    /// Encodes `value` with `JSONEncoder` (Tally's models write Apple's field names and millisecond
    /// dates) and signs it.
    public func sign<Value: Encodable>(_ value: Value, header: String? = nil) -> String? {
        guard let data = try? JSONEncoder().encode(value) else { return nil }
        return sign(payload: data, header: header)
    }
}
