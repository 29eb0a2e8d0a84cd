import COpenSSL

/// Why OpenSSL rejected a chain.
public struct ChainError: Error, Sendable, Hashable {
    /// OpenSSL's `X509_V_ERR_*` code.
    public var code: Int32
    /// Position in the chain of the failing certificate: 0 leaf, 1 intermediate, 2 root.
    public var depth: Int32
    /// OpenSSL's text for the code.
    public var message: String

    /// The certificate had expired at the verification time.
    public var isExpired: Bool { code == X509_V_ERR_CERT_HAS_EXPIRED }
    /// The certificate was not yet valid at the verification time.
    public var isNotYetValid: Bool { code == X509_V_ERR_CERT_NOT_YET_VALID }
}
