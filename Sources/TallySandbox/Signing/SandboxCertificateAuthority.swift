import Foundation
import TallyCrypto

/// The sandbox's own certificate authority: a root, an intermediate carrying Apple's WWDR OID and a
/// leaf carrying Apple's receipt-signing OID, all EC P-256 and signed ecdsa-with-SHA256.
///
/// Apple's libraries, configured to trust ``rootDER``, accept what ``SandboxSigner`` signs with it.
/// The value holds only PEM text and DER bytes; parse it into a signer with ``signer()``.
public struct SandboxCertificateAuthority: Sendable, Hashable {
    /// The root certificate, PEM.
    public let rootPEM: String
    /// The intermediate certificate, PEM.
    public let intermediatePEM: String
    /// The signing (leaf) certificate, PEM.
    public let leafPEM: String
    /// The root certificate, DER: what a verifier is given as its trusted root.
    public let rootDER: Data
    /// The intermediate certificate, DER (`x5c[1]`).
    public let intermediateDER: Data
    /// The leaf certificate, DER (`x5c[0]`).
    public let leafDER: Data
    /// The leaf's private key, PKCS#8 PEM.
    let leafKeyPEM: String
    /// The root's private key, PKCS#8 PEM; nil when loaded from a directory without it.
    let rootKeyPEM: String?
    /// The intermediate's private key, PKCS#8 PEM; nil when loaded from a directory without it.
    let intermediateKeyPEM: String?

    /// Creates a new authority with fresh keys and random serials.
    ///
    /// Every certificate is valid from `years` before `now` to `years` after it, so records whose
    /// `signedDate` comes from a simulated clock in the past or the future still verify at that date.
    public static func generate(now: Date, validity years: Int = 20) throws(SigningError) -> SandboxCertificateAuthority {
        guard years > 0, years <= 100 else {
            throw SigningError(.invalidArgument, "certificate validity must be 1...100 years, got \(years)")
        }
        let span = TimeInterval(years) * 365.25 * 86_400
        let notBefore = now.addingTimeInterval(-span), notAfter = now.addingTimeInterval(span)
        return try SigningError.openSSL { () throws(CryptoError) in
            let rootKey = try PrivateKey.newP256()
            let intermediateKey = try PrivateKey.newP256()
            let leafKey = try PrivateKey.newP256()
            let root = try Certificate.issue(.root, key: rootKey, issuer: nil, notBefore: notBefore, notAfter: notAfter)
            let intermediate = try Certificate.issue(
                .intermediate, key: intermediateKey, issuer: .init(certificate: root, key: rootKey),
                notBefore: notBefore, notAfter: notAfter)
            let leaf = try Certificate.issue(
                .leaf, key: leafKey, issuer: .init(certificate: intermediate, key: intermediateKey),
                notBefore: notBefore, notAfter: notAfter)
            return try SandboxCertificateAuthority(
                root: root, intermediate: intermediate, leaf: leaf,
                leafKey: leafKey, rootKey: rootKey, intermediateKey: intermediateKey)
        }
    }

    init(
        root: Certificate, intermediate: Certificate, leaf: Certificate,
        leafKey: PrivateKey, rootKey: PrivateKey?, intermediateKey: PrivateKey?
    ) throws(CryptoError) {
        rootPEM = root.pem
        intermediatePEM = intermediate.pem
        leafPEM = leaf.pem
        rootDER = Data(root.der)
        intermediateDER = Data(intermediate.der)
        leafDER = Data(leaf.der)
        leafKeyPEM = try leafKey.pem()
        rootKeyPEM = try rootKey.map { key throws(CryptoError) in try key.pem() }
        intermediateKeyPEM = try intermediateKey.map { key throws(CryptoError) in try key.pem() }
    }

    /// A signer using this authority's leaf key and chain.
    public func signer() throws(SigningError) -> SandboxSigner {
        try SandboxSigner(authority: self)
    }
}
