/// What one certificate of the sandbox chain says about itself: name, CA status, key usage and the
/// Apple marker extension Apple's verifiers look for.
struct CertificateProfile: Sendable {
    /// The subject's common name.
    var commonName: String
    /// The value of the critical basicConstraints extension, in OpenSSL's config syntax.
    var basicConstraints: String
    /// The value of the critical keyUsage extension, in OpenSSL's config syntax.
    var keyUsage: String
    /// The Apple marker OID carried as a non-critical extension with an ASN.1 NULL value, if any.
    var markerOID: String?

    /// The organization every sandbox certificate names.
    static let organization = "Tally"

    /// Apple's OID on the WWDR intermediate (Apple's libraries require it on `x5c[1]`).
    static let intermediateMarkerOID = "1.2.840.113635.100.6.2.1"
    /// Apple's OID on the receipt-signing leaf (Apple's libraries require it on `x5c[0]`).
    static let leafMarkerOID = "1.2.840.113635.100.6.11.1"

    /// The self-signed root the verifier is configured to trust.
    static let root = CertificateProfile(
        commonName: "Tally Sandbox Root CA", basicConstraints: "critical,CA:TRUE",
        keyUsage: "critical,keyCertSign,cRLSign", markerOID: nil)

    /// The intermediate, standing in for Apple's WWDR G6.
    static let intermediate = CertificateProfile(
        commonName: "Tally Sandbox WWDR Intermediate", basicConstraints: "critical,CA:TRUE,pathlen:0",
        keyUsage: "critical,keyCertSign,cRLSign", markerOID: intermediateMarkerOID)

    /// The leaf that signs every transaction and renewal info.
    static let leaf = CertificateProfile(
        commonName: "Tally Sandbox Receipt Signing", basicConstraints: "critical,CA:FALSE",
        keyUsage: "critical,digitalSignature", markerOID: leafMarkerOID)
}
