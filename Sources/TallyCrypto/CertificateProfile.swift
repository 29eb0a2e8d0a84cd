/// What a certificate to issue says about itself: name, CA status, key usage and an optional marker
/// extension (such as the Apple OIDs Apple's verifiers look for).
public struct CertificateProfile: Sendable, Hashable {
    /// The subject's common name (CN).
    public var commonName: String
    /// The subject's organization (O).
    public var organization: String
    /// The value of the basicConstraints extension, in OpenSSL's config syntax ("critical,CA:TRUE").
    public var basicConstraints: String
    /// The value of the keyUsage extension, in OpenSSL's config syntax ("critical,digitalSignature").
    public var keyUsage: String
    /// A dotted OID carried as a non-critical extension with an ASN.1 NULL value, if any.
    public var markerOID: String?

    /// Creates a profile.
    public init(
        commonName: String, organization: String, basicConstraints: String, keyUsage: String, markerOID: String? = nil
    ) {
        self.commonName = commonName
        self.organization = organization
        self.basicConstraints = basicConstraints
        self.keyUsage = keyUsage
        self.markerOID = markerOID
    }
}
