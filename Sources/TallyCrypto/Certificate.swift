import COpenSSL
import Foundation

/// An X.509 certificate parsed by OpenSSL (`d2i_X509` / `PEM_read_bio_X509`).
///
/// `@unchecked Sendable`: the wrapped `X509` is never mutated after parsing, and OpenSSL 3 computes
/// its lazily cached extension data under the certificate's own lock, so concurrent reads are safe.
public final class Certificate: @unchecked Sendable, CustomStringConvertible {
    /// The owned `X509 *`, for OpenSSL calls elsewhere in the package (OCSP, PKCS#7).
    package let x509: OpaquePointer
    /// The certificate's DER encoding.
    public let der: [UInt8]

    /// Parses one DER-encoded certificate; nil if the bytes are not exactly one certificate.
    public init?(der bytes: some Collection<UInt8>) {
        let der = Array(bytes)
        guard !der.isEmpty, der.count < Int(Int32.max) else { return nil }
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            let x509 = d2i_X509(nil, &cursor, buffer.count)
            // Trailing bytes after the certificate mean this is not one clean DER certificate.
            if let x509, let cursor, let base = buffer.baseAddress, cursor - base != buffer.count {
                X509_free(x509)
                return nil
            }
            return x509
        }
        guard let parsed else {
            _ = CryptoError.drain()
            return nil
        }
        self.x509 = parsed
        self.der = der
    }

    /// Wraps an `X509` this object now owns (freed here when its DER cannot be written).
    package init?(owning x509: OpaquePointer) {
        var cursor: UnsafeMutablePointer<UInt8>?
        let length = i2d_X509(x509, &cursor)
        guard length > 0, let cursor else {
            X509_free(x509)
            return nil
        }
        self.der = Array(UnsafeBufferPointer(start: cursor, count: Int(length)))
        CRYPTO_free(cursor, #file, #line)
        self.x509 = x509
    }

    /// Wraps an `X509` OpenSSL owns elsewhere (a PKCS#7 signer, a verified chain), taking a reference of its own.
    package convenience init?(retaining x509: OpaquePointer) {
        X509_up_ref(x509)
        self.init(owning: x509)
    }

    deinit { X509_free(x509) }

    /// Start of the validity period.
    public var notBefore: Date { Self.date(X509_get0_notBefore(x509)) ?? .distantFuture }
    /// End of the validity period.
    public var notAfter: Date { Self.date(X509_get0_notAfter(x509)) ?? .distantPast }

    /// Whether `date` lies inside the validity period.
    public func isValid(at date: Date) -> Bool { notBefore <= date && date <= notAfter }

    /// Whether the certificate carries an extension with the dotted `oid` (e.g. "1.2.840.113635.100.6.11.1").
    public func hasExtension(oid: String) -> Bool {
        guard let object = OBJ_txt2obj(oid, 1) else { return false }
        defer { ASN1_OBJECT_free(object) }
        return X509_get_ext_by_OBJ(x509, object, -1) >= 0
    }

    /// True when basicConstraints says CA:TRUE.
    public var isCA: Bool { X509_check_ca(x509) == 1 }

    /// The subject public key.
    public var publicKey: PublicKey? {
        guard let key = X509_get_pubkey(x509) else { return nil }
        return PublicKey(owning: key)
    }

    /// The subject as a one-line string ("/C=US/O=Apple Inc./CN=...").
    public var subject: String { Self.name(X509_get_subject_name(x509)) }
    /// The issuer as a one-line string.
    public var issuer: String { Self.name(X509_get_issuer_name(x509)) }

    /// The serial number in lowercase hex.
    public var serialNumberHex: String {
        guard let serial = X509_get0_serialNumber(x509), let bn = ASN1_INTEGER_to_BN(serial, nil) else { return "" }
        defer { BN_free(bn) }
        guard let hex = BN_bn2hex(bn) else { return "" }
        defer { CRYPTO_free(hex, #file, #line) }
        return String(cString: hex).lowercased()
    }

    /// The OCSP responder URLs from the Authority Information Access extension.
    public var ocspURLs: [String] {
        guard let stack = X509_get1_ocsp(x509) else { return [] }
        defer { X509_email_free(stack) }
        return (0..<OPENSSL_sk_num(stack)).compactMap { index in
            OPENSSL_sk_value(stack, index).map { String(cString: $0.assumingMemoryBound(to: CChar.self)) }
        }
    }

    /// The subject and serial, for logs and failure messages.
    public var description: String { "\(subject) (serial \(serialNumberHex))" }

    static func date(_ time: UnsafePointer<ASN1_TIME>?) -> Date? {
        guard let time else { return nil }
        var parts = tm()
        guard ASN1_TIME_to_tm(time, &parts) == 1 else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
    }

    static func name(_ name: OpaquePointer?) -> String {
        guard let name, let text = X509_NAME_oneline(name, nil, 0) else { return "" }
        defer { CRYPTO_free(text, #file, #line) }
        return String(cString: text)
    }
}
