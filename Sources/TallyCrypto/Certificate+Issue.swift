import COpenSSL
import Foundation

extension Certificate {
    /// The certificate that signs a new one, with its private key.
    public struct Issuer: Sendable {
        /// The issuing certificate.
        public var certificate: Certificate
        /// The issuing certificate's private key.
        public var key: PrivateKey

        /// Creates an issuer.
        public init(certificate: Certificate, key: PrivateKey) {
            self.certificate = certificate
            self.key = key
        }
    }

    /// Issues an X.509 v3 certificate for `key` described by `profile`, valid from `notBefore` to
    /// `notAfter`, with a random serial, signed ecdsa-with-SHA256 by `issuer` (self-signed when nil).
    public static func issue(
        _ profile: CertificateProfile, key: PrivateKey, issuer: Issuer?, notBefore: Date, notAfter: Date
    ) throws(CryptoError) -> Certificate {
        CryptoError.clear()
        let builder = try CertificateBuilder()
        let x509 = builder.x509
        try CryptoError.check(X509_set_version(x509, 2), "X509_set_version")
        try builder.setRandomSerial()
        try CryptoError.require(ASN1_TIME_set(X509_getm_notBefore(x509), time_t(notBefore.timeIntervalSince1970)),
                                "ASN1_TIME_set", "notBefore")
        try CryptoError.require(ASN1_TIME_set(X509_getm_notAfter(x509), time_t(notAfter.timeIntervalSince1970)),
                                "ASN1_TIME_set", "notAfter")
        try builder.setSubject(commonName: profile.commonName, organization: profile.organization)
        let issuerX509 = issuer?.certificate.x509 ?? x509
        try CryptoError.check(X509_set_issuer_name(x509, X509_get_subject_name(issuerX509)), "X509_set_issuer_name")
        try CryptoError.check(X509_set_pubkey(x509, key.pkey), "X509_set_pubkey")

        var context = X509V3_CTX()
        X509V3_set_ctx(&context, issuerX509, x509, nil, nil, 0)
        try builder.addExtension(NID_basic_constraints, profile.basicConstraints, &context)
        try builder.addExtension(NID_key_usage, profile.keyUsage, &context)
        try builder.addExtension(NID_subject_key_identifier, "hash", &context)
        if issuer != nil {
            try builder.addExtension(NID_authority_key_identifier, "keyid:always", &context)
        }
        if let oid = profile.markerOID { try builder.addMarker(oid) }

        guard X509_sign(x509, (issuer?.key ?? key).pkey, EVP_sha256()) > 0 else {
            throw CryptoError.failure("X509_sign", profile.commonName)
        }
        return try builder.certificate()
    }
}
