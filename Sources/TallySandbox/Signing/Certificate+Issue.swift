import COpenSSL
import Foundation

extension Certificate {
    /// The certificate that signs a new one, with its private key.
    struct Issuer {
        var certificate: Certificate
        var key: PrivateKey
    }

    /// Issues an X.509 v3 certificate for `key` described by `profile`, valid from `notBefore` to
    /// `notAfter`, signed ecdsa-with-SHA256 by `issuer` (self-signed when `issuer` is nil).
    static func issue(
        _ profile: CertificateProfile, key: PrivateKey, issuer: Issuer?, notBefore: Date, notAfter: Date
    ) throws(SigningError) -> Certificate {
        OpenSSLError.clear()
        let cert = Certificate(taking: try OpenSSLError.require(X509_new(), "X509_new"))
        let x509 = cert.pointer
        try OpenSSLError.check(X509_set_version(x509, 2), "X509_set_version")
        try cert.setRandomSerial()
        try OpenSSLError.require(ASN1_TIME_set(X509_getm_notBefore(x509), time_t(notBefore.timeIntervalSince1970)),
                                 "ASN1_TIME_set", "notBefore")
        try OpenSSLError.require(ASN1_TIME_set(X509_getm_notAfter(x509), time_t(notAfter.timeIntervalSince1970)),
                                 "ASN1_TIME_set", "notAfter")
        try cert.setSubject(profile.commonName)
        let issuerName = X509_get_subject_name((issuer?.certificate ?? cert).pointer)
        try OpenSSLError.check(X509_set_issuer_name(x509, issuerName), "X509_set_issuer_name")
        try OpenSSLError.check(X509_set_pubkey(x509, key.pointer), "X509_set_pubkey")

        var context = X509V3_CTX()
        X509V3_set_ctx(&context, (issuer?.certificate ?? cert).pointer, x509, nil, nil, 0)
        try cert.addExtension(NID_basic_constraints, profile.basicConstraints, &context)
        try cert.addExtension(NID_key_usage, profile.keyUsage, &context)
        try cert.addExtension(NID_subject_key_identifier, "hash", &context)
        if issuer != nil {
            try cert.addExtension(NID_authority_key_identifier, "keyid:always", &context)
        }
        if let oid = profile.markerOID { try cert.addMarker(oid) }

        let signed = X509_sign(x509, (issuer?.key ?? key).pointer, EVP_sha256())
        guard signed > 0 else { throw OpenSSLError.failure("X509_sign", profile.commonName) }
        return cert
    }

    private func setRandomSerial() throws(SigningError) {
        let number = try OpenSSLError.require(BN_new(), "BN_new")
        defer { BN_free(number) }
        // 127 random bits with the top one set: positive, non-zero, 16 bytes (RFC 5280 allows 20).
        try OpenSSLError.check(BN_rand(number, 127, BN_RAND_TOP_ONE, BN_RAND_BOTTOM_ANY), "BN_rand")
        try OpenSSLError.require(BN_to_ASN1_INTEGER(number, X509_get_serialNumber(pointer)), "BN_to_ASN1_INTEGER")
    }

    private func setSubject(_ commonName: String) throws(SigningError) {
        let name = try OpenSSLError.require(X509_NAME_new(), "X509_NAME_new")
        defer { X509_NAME_free(name) }
        for (field, value) in [("CN", commonName), ("O", CertificateProfile.organization)] {
            let bytes = Array(value.utf8)
            try OpenSSLError.check(
                X509_NAME_add_entry_by_txt(name, field, MBSTRING_UTF8, bytes, Int32(bytes.count), -1, 0),
                "X509_NAME_add_entry_by_txt", field)
        }
        try OpenSSLError.check(X509_set_subject_name(pointer, name), "X509_set_subject_name")
    }

    private func addExtension(_ nid: Int32, _ value: String, _ context: inout X509V3_CTX) throws(SigningError) {
        let name = String(cString: OBJ_nid2sn(nid))
        let ext = try OpenSSLError.require(X509V3_EXT_conf_nid(nil, &context, nid, value), "X509V3_EXT_conf_nid", name)
        defer { X509_EXTENSION_free(ext) }
        try OpenSSLError.check(X509_add_ext(pointer, ext, -1), "X509_add_ext", name)
    }

    /// Adds the non-critical extension `oid` with the DER value of ASN.1 NULL (`05 00`), as Apple does.
    private func addMarker(_ oid: String) throws(SigningError) {
        let object = try OpenSSLError.require(OBJ_txt2obj(oid, 1), "OBJ_txt2obj", oid)
        defer { ASN1_OBJECT_free(object) }
        let value = try OpenSSLError.require(ASN1_OCTET_STRING_new(), "ASN1_OCTET_STRING_new")
        defer { ASN1_OCTET_STRING_free(value) }
        let null: [UInt8] = [0x05, 0x00]
        try OpenSSLError.check(ASN1_OCTET_STRING_set(value, null, Int32(null.count)), "ASN1_OCTET_STRING_set", oid)
        let ext = try OpenSSLError.require(
            X509_EXTENSION_create_by_OBJ(nil, object, 0, value), "X509_EXTENSION_create_by_OBJ", oid)
        defer { X509_EXTENSION_free(ext) }
        try OpenSSLError.check(X509_add_ext(pointer, ext, -1), "X509_add_ext", oid)
    }
}
