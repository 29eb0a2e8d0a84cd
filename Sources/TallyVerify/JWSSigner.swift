import Foundation

/// Signs payloads as compact ES256 JWS with an `x5c` chain, the form the App Store uses.
/// For tests and simulations: the sandbox can sign data that Tally's verifier checks like Apple's.
public struct JWSSigner: Sendable {
    /// The P-256 signing key (the leaf's key).
    public let key: PrivateKey
    /// The `x5c` chain, leaf first; empty for no `x5c` header (StoreKit-testing style data).
    public let chain: [Certificate]

    /// Creates a signer.
    public init(key: PrivateKey, chain: [Certificate]) {
        self.key = key
        self.chain = chain
    }

    /// The protected header: `{"alg":"ES256","x5c":[...]}` (no `x5c` when the chain is empty).
    public var headerJSON: String {
        guard !chain.isEmpty else { return #"{"alg":"ES256"}"# }
        let certificates = chain.map { "\"\(Data($0.der).base64EncodedString())\"" }.joined(separator: ",")
        return #"{"alg":"ES256","x5c":["# + certificates + "]}"
    }

    /// Signs `payload` bytes under `header` (default ``headerJSON``); nil if OpenSSL cannot sign.
    public func sign(payload: some Collection<UInt8>, header: String? = nil) -> String? {
        let signingInput = Base64URL.encode(Array((header ?? headerJSON).utf8)) + "." + Base64URL.encode(payload)
        guard let der = key.signDigest(ECDSA.sha256(Array(signingInput.utf8))),
              let raw = ECDSA.rawSignature(fromDER: der)
        else { return nil }
        return signingInput + "." + Base64URL.encode(raw)
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
