import COpenSSL

/// One OCSP question (is `certificate`, issued by `issuer`, revoked?) built with OpenSSL's OCSP API.
struct OCSPRequest {
    let certificate: Certificate
    let issuer: Certificate

    /// The DER `OCSPRequest` body to POST as `application/ocsp-request`.
    func der() -> [UInt8]? {
        guard let request = OCSP_REQUEST_new() else { return nil }
        defer { OCSP_REQUEST_free(request) }
        guard let id = OCSP_cert_to_id(nil, certificate.x509, issuer.x509) else {
            _ = CryptoError.drain()
            return nil
        }
        guard OCSP_request_add0_id(request, id) != nil else {  // the request now owns id
            OCSP_CERTID_free(id)
            return nil
        }
        var cursor: UnsafeMutablePointer<UInt8>?
        let length = i2d_OCSP_REQUEST(request, &cursor)
        guard length > 0, let cursor else { return nil }
        defer { CRYPTO_free(cursor, #file, #line) }
        return Array(UnsafeBufferPointer(start: cursor, count: Int(length)))
    }
}

/// What an OCSP responder said about one certificate.
enum OCSPStatus: Equatable {
    /// Not revoked.
    case good
    /// Revoked.
    case revoked
    /// The responder does not know the certificate.
    case unknown
}

/// Why an OCSP exchange gave no usable answer.
struct OCSPError: Error {
    /// True when trying again later may succeed (network, `tryLater`), false for a bad or forged answer.
    var retryable: Bool
    var message: String
}

extension OCSPRequest {
    /// Reads a DER `OCSPResponse`: checks its status, its signature (signer chaining to `store`
    /// through `issuer`), its freshness, and returns the certificate's status.
    func status(fromResponse der: [UInt8], store: TrustStore) -> Result<OCSPStatus, OCSPError> {
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_OCSP_RESPONSE(nil, &cursor, buffer.count)
        }
        guard let response = parsed else {
            _ = CryptoError.drain()
            return .failure(OCSPError(retryable: true, message: "the OCSP responder's answer is not an OCSPResponse"))
        }
        defer { OCSP_RESPONSE_free(response) }
        let responseStatus = OCSP_response_status(response)
        guard responseStatus == OCSP_RESPONSE_STATUS_SUCCESSFUL else {
            let text = OCSP_response_status_str(Int(responseStatus)).map { String(cString: $0) } ?? "\(responseStatus)"
            return .failure(OCSPError(retryable: true, message: "the OCSP responder answered \(text)"))
        }
        guard let basic = OCSP_response_get1_basic(response) else {
            return .failure(OCSPError(retryable: false, message: "the OCSP answer has no basic response"))
        }
        defer { OCSP_BASICRESP_free(basic) }
        guard let untrusted = OPENSSL_sk_new_null() else {
            return .failure(OCSPError(retryable: true, message: "out of memory"))
        }
        defer { OPENSSL_sk_free(untrusted) }
        _ = OPENSSL_sk_push(untrusted, UnsafeRawPointer(issuer.x509))
        guard OCSP_basic_verify(basic, untrusted, store.store, 0) == 1 else {
            let detail = CryptoError.drain()
            return .failure(OCSPError(retryable: false, message: "the OCSP answer's signature did not verify: \(detail)"))
        }
        guard let id = OCSP_cert_to_id(nil, certificate.x509, issuer.x509) else {
            return .failure(OCSPError(retryable: false, message: "could not identify the certificate"))
        }
        defer { OCSP_CERTID_free(id) }
        var status: Int32 = -1
        var reason: Int32 = -1
        var revoked: UnsafeMutablePointer<ASN1_GENERALIZEDTIME>?
        var thisUpdate: UnsafeMutablePointer<ASN1_GENERALIZEDTIME>?
        var nextUpdate: UnsafeMutablePointer<ASN1_GENERALIZEDTIME>?
        guard OCSP_resp_find_status(basic, id, &status, &reason, &revoked, &thisUpdate, &nextUpdate) == 1 else {
            return .failure(OCSPError(retryable: false, message: "the OCSP answer does not mention the certificate"))
        }
        guard OCSP_check_validity(thisUpdate, nextUpdate, 300, -1) == 1 else {
            _ = CryptoError.drain()
            return .failure(OCSPError(retryable: true, message: "the OCSP answer is stale or not yet valid"))
        }
        switch status {
        case V_OCSP_CERTSTATUS_GOOD: return .success(.good)
        case V_OCSP_CERTSTATUS_REVOKED: return .success(.revoked)
        default: return .success(.unknown)
        }
    }
}
