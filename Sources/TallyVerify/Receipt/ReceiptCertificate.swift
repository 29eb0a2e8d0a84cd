import COpenSSL
import Foundation

/// An X.509 certificate held through OpenSSL, for receipt chain checks. Owns one reference.
final class ReceiptCertificate {
    /// The OpenSSL object; this wrapper holds one reference to it.
    let pointer: OpaquePointer

    /// Parses DER; `role` names the certificate in the failure ("trusted root 1").
    init(der: Data, role: String) throws(VerificationFailure) {
        let bytes = [UInt8](der)
        let parsed: OpaquePointer? = bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return nil }
            var cursor: UnsafePointer<UInt8>? = base
            return d2i_X509(nil, &cursor, buffer.count)
        }
        ERR_clear_error()
        guard let parsed else {
            throw VerificationFailure(.invalidCertificate, "the \(role) (\(bytes.count) bytes) is not a DER X.509 certificate")
        }
        pointer = parsed
    }

    /// Takes an extra reference to a certificate OpenSSL owns elsewhere.
    init(retaining pointer: OpaquePointer) {
        X509_up_ref(pointer)
        self.pointer = pointer
    }

    deinit { X509_free(pointer) }

    /// The subject as OpenSSL prints it on one line ("/C=US/O=Apple Inc./…/CN=…").
    var subject: String {
        var buffer = [CChar](repeating: 0, count: 512)
        guard X509_NAME_oneline(X509_get_subject_name(pointer), &buffer, Int32(buffer.count)) != nil else { return "?" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// "notBefore – notAfter" in ISO 8601 UTC.
    var validity: String {
        "\(Self.text(X509_get0_notBefore(pointer))) – \(Self.text(X509_get0_notAfter(pointer)))"
    }

    /// True when the certificate carries an extension with the dotted OID.
    func hasExtension(_ oid: String) -> Bool {
        guard let object = OBJ_txt2obj(oid, 1) else { return false }
        defer { ASN1_OBJECT_free(object) }
        return X509_get_ext_by_OBJ(pointer, object, -1) >= 0
    }

    /// True when both are the same certificate.
    func isSame(as other: ReceiptCertificate) -> Bool { X509_cmp(pointer, other.pointer) == 0 }

    /// An ASN.1 time as `yyyy-MM-ddTHH:mm:ssZ`.
    private static func text(_ time: UnsafePointer<ASN1_TIME>?) -> String {
        var parts = tm()
        guard let time, ASN1_TIME_to_tm(time, &parts) == 1 else { return "?" }
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }
}
