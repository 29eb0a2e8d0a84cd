import TallyCrypto

/// The three certificates of the sandbox chain, carrying the Apple marker OIDs Apple's verifiers look for.
extension CertificateProfile {
    /// The organization every sandbox certificate names.
    static let sandboxOrganization = "Tally"

    /// Apple's OID on the WWDR intermediate (Apple's libraries require it on `x5c[1]`).
    static let intermediateMarkerOID = "1.2.840.113635.100.6.2.1"
    /// Apple's OID on the receipt-signing leaf (Apple's libraries require it on `x5c[0]`).
    static let leafMarkerOID = "1.2.840.113635.100.6.11.1"

    /// The self-signed root the verifier is configured to trust.
    static let root = CertificateProfile(
        commonName: "Tally Sandbox Root CA", organization: sandboxOrganization,
        basicConstraints: "critical,CA:TRUE", keyUsage: "critical,keyCertSign,cRLSign")

    /// The intermediate, standing in for Apple's WWDR G6.
    static let intermediate = CertificateProfile(
        commonName: "Tally Sandbox WWDR Intermediate", organization: sandboxOrganization,
        basicConstraints: "critical,CA:TRUE,pathlen:0", keyUsage: "critical,keyCertSign,cRLSign",
        markerOID: intermediateMarkerOID)

    /// The leaf that signs every transaction and renewal info.
    static let leaf = CertificateProfile(
        commonName: "Tally Sandbox Receipt Signing", organization: sandboxOrganization,
        basicConstraints: "critical,CA:FALSE", keyUsage: "critical,digitalSignature", markerOID: leafMarkerOID)
}
