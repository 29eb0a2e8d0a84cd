import COpenSSL

extension Certificate {
    /// True when `issuer`'s public key verifies this certificate's signature.
    public func isSigned(by issuer: Certificate) -> Bool {
        guard let key = X509_get0_pubkey(issuer.x509) else { return false }
        defer { CryptoError.clear() }
        return X509_verify(x509, key) == 1
    }

    /// True when `key` is the private key of this certificate's public key.
    public func matches(_ key: PrivateKey) -> Bool {
        defer { CryptoError.clear() }
        return X509_check_private_key(x509, key.pkey) == 1
    }
}
