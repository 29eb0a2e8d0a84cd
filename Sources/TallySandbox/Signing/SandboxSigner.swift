import Foundation
import TallyCore
import TallyCrypto

/// Signs payloads as compact JWS in the App Store's format: header
/// `{"alg":"ES256","x5c":[leaf, intermediate, root]}`, the payload's JSON, and an ES256 signature
/// (raw r‖s), each segment base64url without padding. A thin wrapper over TallyCrypto's ``JWSSigner``.
///
/// Safe to share between threads: every stored property is immutable and `Sendable`, and each call
/// signs with its own OpenSSL context.
public final class SandboxSigner: Sendable {
    /// The signer over the authority's leaf key and chain.
    private let signer: JWSSigner

    /// A signer for `authority`'s leaf; fails if the leaf key cannot sign.
    public init(authority: SandboxCertificateAuthority) throws(SigningError) {
        typealias FileName = SandboxCertificateAuthority.FileName
        let key = try AuthorityPEM.privateKey(Data(authority.leafKeyPEM.utf8), file: FileName.leafKey)
        let chain = [
            try AuthorityPEM.certificate(Data(authority.leafPEM.utf8), file: FileName.leaf),
            try AuthorityPEM.certificate(Data(authority.intermediatePEM.utf8), file: FileName.intermediate),
            try AuthorityPEM.certificate(Data(authority.rootPEM.utf8), file: FileName.root),
        ]
        signer = JWSSigner(key: key, chain: chain)
        // Signing once here surfaces a broken key now, not at the first purchase.
        _ = try sign(payloadJSON: Data())
    }

    /// `payload` encoded with its own `Encodable` conformance (Tally's models write Apple's field
    /// names and millisecond dates), keys sorted so equal payloads give equal segments, signed.
    public func sign<T: Encodable>(_ payload: T) throws(SigningError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json: Data
        do {
            json = try encoder.encode(payload)
        } catch {
            throw SigningError(.encoding, "cannot encode \(T.self) as JSON to sign it: \(error)")
        }
        return try sign(payloadJSON: json)
    }

    /// Already-encoded JSON `payload`, signed as is.
    public func sign(payloadJSON payload: Data) throws(SigningError) -> String {
        try SigningError.openSSL { () throws(CryptoError) in try signer.signed(payload: payload) }
    }

    /// A `signedTransactionInfo` for `transaction`.
    public func signTransaction(_ transaction: StoreTransaction) throws(SigningError) -> String {
        try sign(transaction)
    }

    /// A `signedRenewalInfo` for `renewalInfo`.
    public func signRenewalInfo(_ renewalInfo: RenewalInfo) throws(SigningError) -> String {
        try sign(renewalInfo)
    }
}
