import COpenSSL

/// An `X509` being filled in before it is signed; frees it unless ``certificate()`` took it.
///
/// Used by one thread while one certificate is issued, never shared.
final class CertificateBuilder {
    /// The `X509 *` under construction.
    let x509: OpaquePointer
    private var owned = true

    init() throws(CryptoError) {
        x509 = try CryptoError.require(X509_new(), "X509_new")
    }

    deinit { if owned { X509_free(x509) } }

    /// Hands the finished `X509` to a ``Certificate``.
    func certificate() throws(CryptoError) -> Certificate {
        owned = false
        return try CryptoError.require(Certificate(owning: x509), "i2d_X509")
    }

    /// A random 127-bit serial with the top bit set: positive, non-zero, 16 bytes (RFC 5280 allows 20).
    func setRandomSerial() throws(CryptoError) {
        let number = try CryptoError.require(BN_new(), "BN_new")
        defer { BN_free(number) }
        try CryptoError.check(BN_rand(number, 127, BN_RAND_TOP_ONE, BN_RAND_BOTTOM_ANY), "BN_rand")
        try CryptoError.require(BN_to_ASN1_INTEGER(number, X509_get_serialNumber(x509)), "BN_to_ASN1_INTEGER")
    }

    /// Sets the subject to CN=`commonName`, O=`organization`.
    func setSubject(commonName: String, organization: String) throws(CryptoError) {
        let name = try CryptoError.require(X509_NAME_new(), "X509_NAME_new")
        defer { X509_NAME_free(name) }
        for (field, value) in [("CN", commonName), ("O", organization)] {
            let bytes = Array(value.utf8)
            try CryptoError.check(
                X509_NAME_add_entry_by_txt(name, field, MBSTRING_UTF8, bytes, Int32(bytes.count), -1, 0),
                "X509_NAME_add_entry_by_txt", field)
        }
        try CryptoError.check(X509_set_subject_name(x509, name), "X509_set_subject_name")
    }

    /// Adds extension `nid` with `value` in OpenSSL's config syntax.
    func addExtension(_ nid: Int32, _ value: String, _ context: inout X509V3_CTX) throws(CryptoError) {
        let name = String(cString: OBJ_nid2sn(nid))
        let ext = try CryptoError.require(X509V3_EXT_conf_nid(nil, &context, nid, value), "X509V3_EXT_conf_nid", name)
        defer { X509_EXTENSION_free(ext) }
        try CryptoError.check(X509_add_ext(x509, ext, -1), "X509_add_ext", name)
    }

    /// Adds the non-critical extension `oid` with the DER value of ASN.1 NULL (`05 00`), as Apple does.
    func addMarker(_ oid: String) throws(CryptoError) {
        let object = try CryptoError.require(OBJ_txt2obj(oid, 1), "OBJ_txt2obj", oid)
        defer { ASN1_OBJECT_free(object) }
        let value = try CryptoError.require(ASN1_OCTET_STRING_new(), "ASN1_OCTET_STRING_new")
        defer { ASN1_OCTET_STRING_free(value) }
        let null: [UInt8] = [0x05, 0x00]
        try CryptoError.check(ASN1_OCTET_STRING_set(value, null, Int32(null.count)), "ASN1_OCTET_STRING_set", oid)
        let ext = try CryptoError.require(
            X509_EXTENSION_create_by_OBJ(nil, object, 0, value), "X509_EXTENSION_create_by_OBJ", oid)
        defer { X509_EXTENSION_free(ext) }
        try CryptoError.check(X509_add_ext(x509, ext, -1), "X509_add_ext", oid)
    }
}
