import COpenSSL
import Foundation
import TallyCore

/// Signs payloads as compact JWS in the App Store's format: header
/// `{"alg":"ES256","x5c":[leaf, intermediate, root]}`, the payload's JSON, and an ES256 signature
/// (raw r‖s), each segment base64url without padding.
///
/// Safe to share between threads: every stored property is immutable and `Sendable`, and each call
/// signs with its own OpenSSL context.
public final class SandboxSigner: Sendable {
    /// The leaf's private key.
    private let key: PrivateKey
    /// The encoded header segment, the same for every signature.
    private let headerSegment: String

    /// A signer for `authority`'s leaf; fails if the leaf key cannot sign.
    public init(authority: SandboxCertificateAuthority) throws(SigningError) {
        key = try PrivateKey.fromPEM(Data(authority.leafKeyPEM.utf8), file: SandboxCertificateAuthority.FileName.leafKey)
        let chain = [authority.leafDER, authority.intermediateDER, authority.rootDER]
            .map { "\"\($0.base64EncodedString())\"" }
            .joined(separator: ",")
        headerSegment = Data(#"{"alg":"ES256","x5c":[\#(chain)]}"#.utf8).base64URLEncodedString
        // Signing once here surfaces a broken key now, not at the first purchase.
        _ = try signature(over: Data("\(headerSegment).".utf8))
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
        let signingInput = "\(headerSegment).\(payload.base64URLEncodedString)"
        let signature = try signature(over: Data(signingInput.utf8))
        return "\(signingInput).\(signature.base64URLEncodedString)"
    }

    /// A `signedTransactionInfo` for `transaction`.
    public func signTransaction(_ transaction: Transaction) throws(SigningError) -> String {
        try sign(transaction)
    }

    /// A `signedRenewalInfo` for `renewalInfo`.
    public func signRenewalInfo(_ renewalInfo: RenewalInfo) throws(SigningError) -> String {
        try sign(renewalInfo)
    }

    /// ECDSA P-256 over SHA-256 of `input`, as raw r‖s.
    private func signature(over input: Data) throws(SigningError) -> Data {
        OpenSSLError.clear()
        let context = try OpenSSLError.require(EVP_MD_CTX_new(), "EVP_MD_CTX_new")
        defer { EVP_MD_CTX_free(context) }
        try OpenSSLError.check(EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key.pointer), "EVP_DigestSignInit")
        var der = [UInt8](repeating: 0, count: 80)  // a P-256 DER signature is at most 72 bytes
        var length = der.count
        let result = input.withUnsafeBytes { raw in
            EVP_DigestSign(context, &der, &length, raw.bindMemory(to: UInt8.self).baseAddress, raw.count)
        }
        try OpenSSLError.check(result, "EVP_DigestSign")
        return try ECDSASignature.raw(fromDER: Array(der.prefix(length)))
    }
}
