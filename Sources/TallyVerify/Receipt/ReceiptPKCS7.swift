import COpenSSL

/// An app receipt's PKCS#7 `SignedData`, decoded by OpenSSL (`d2i_PKCS7`, which also reads the BER
/// with indefinite lengths that Xcode writes). Owns the OpenSSL object; not shared across tasks.
final class ReceiptPKCS7 {
    /// The OpenSSL object, freed with the wrapper.
    let pointer: UnsafeMutablePointer<PKCS7>

    /// Decodes a DER/BER PKCS#7 container, once ``ReceiptEnvelope`` found its size and sets within limits.
    init(der: [UInt8]) throws(VerificationFailure) {
        try ReceiptEnvelope.check(der)
        ERR_clear_error()
        defer { ERR_clear_error() }
        let decoded: UnsafeMutablePointer<PKCS7>? = der.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return nil }
            var cursor: UnsafePointer<UInt8>? = base
            return d2i_PKCS7(nil, &cursor, buffer.count)
        }
        guard let decoded else {
            throw VerificationFailure(
                .verificationFailure,
                "the receipt (\(der.count) bytes) is not a PKCS#7 container: \(ReceiptSignatureCheck.openSSLDetail("unreadable"))")
        }
        pointer = decoded
    }

    deinit { PKCS7_free(pointer) }

    /// The `SignedData` part, or a failure naming what the container is instead.
    private func signedData() throws(VerificationFailure) -> UnsafeMutablePointer<PKCS7_SIGNED> {
        guard OBJ_obj2nid(pointer.pointee.type) == NID_pkcs7_signed, let signed = pointer.pointee.d.sign else {
            throw VerificationFailure(.verificationFailure, "the receipt is a PKCS#7 container but not SignedData")
        }
        return signed
    }

    /// The signed content (the receipt payload), read without verifying anything.
    func signedContent() throws(VerificationFailure) -> [UInt8] {
        let signed = try signedData()
        guard let contents = signed.pointee.contents, OBJ_obj2nid(contents.pointee.type) == NID_pkcs7_data else {
            throw VerificationFailure(.verificationFailure, "the receipt's signed content is not PKCS#7 data")
        }
        guard let octets = contents.pointee.d.data else {
            throw VerificationFailure(.verificationFailure, "the receipt has no signed content (detached signature)")
        }
        return ReceiptASN1.copy(octets)
    }

    /// The certificates embedded in the container (signer and intermediates), borrowed; nil when there are none.
    func embeddedCertificates() throws(VerificationFailure) -> OpaquePointer? {
        try signedData().pointee.cert
    }
}
