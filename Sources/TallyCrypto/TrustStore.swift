import COpenSSL
import Foundation

/// A set of trusted root certificates in an OpenSSL `X509_STORE`, and chain verification against it.
///
/// `@unchecked Sendable`: the store is filled once in `init` and only read afterwards; OpenSSL locks
/// an `X509_STORE` internally, so many `X509_STORE_CTX` may verify against it at the same time.
public final class TrustStore: @unchecked Sendable {
    /// The owned `X509_STORE *`, for OpenSSL calls elsewhere in the package (OCSP).
    package let store: OpaquePointer
    /// The trusted roots.
    public let roots: [Certificate]

    /// Creates a store trusting exactly `roots`.
    public init?(roots: [Certificate]) {
        guard let store = X509_STORE_new() else { return nil }
        for root in roots where X509_STORE_add_cert(store, root.x509) != 1 {
            _ = CryptoError.drain()  // a duplicate root is harmless
        }
        self.store = store
        self.roots = roots
    }

    deinit { X509_STORE_free(store) }

    /// Verifies `leaf` through the untrusted `intermediates` to one of the roots, at `date`.
    ///
    /// `strict` adds OpenSSL's `X509_V_FLAG_X509_STRICT` (RFC 5280 profile checks, as Apple's
    /// Python library does by default).
    public func verify(leaf: Certificate, intermediates: [Certificate], at date: Date, strict: Bool = false)
        -> Result<VerifiedChain, ChainError>
    {
        guard let context = X509_STORE_CTX_new() else {
            return .failure(ChainError(code: -1, depth: 0, message: "out of memory"))
        }
        defer { X509_STORE_CTX_free(context) }
        guard let untrusted = OPENSSL_sk_new_null() else {
            return .failure(ChainError(code: -1, depth: 0, message: "out of memory"))
        }
        defer { OPENSSL_sk_free(untrusted) }
        for certificate in intermediates {
            _ = OPENSSL_sk_push(untrusted, UnsafeRawPointer(certificate.x509))
        }
        guard X509_STORE_CTX_init(context, store, leaf.x509, untrusted) == 1 else {
            return .failure(ChainError(code: -1, depth: 0, message: CryptoError.drain()))
        }
        let parameters = X509_STORE_CTX_get0_param(context)
        // Clamped to years 0001…9999 so a hostile signedDate can never overflow time_t.
        let seconds = date.timeIntervalSince1970
        let clamped = seconds.isFinite ? Swift.min(Swift.max(seconds, -62_135_596_800), 253_402_300_799) : 0
        X509_VERIFY_PARAM_set_time(parameters, time_t(clamped.rounded(.down)))
        if strict { X509_VERIFY_PARAM_set_flags(parameters, UInt(X509_V_FLAG_X509_STRICT)) }

        let ok = X509_verify_cert(context) == 1
        if !ok {
            let code = X509_STORE_CTX_get_error(context)
            let depth = X509_STORE_CTX_get_error_depth(context)
            let text = X509_verify_cert_error_string(Int(code)).map { String(cString: $0) } ?? "error \(code)"
            _ = CryptoError.drain()
            return .failure(ChainError(code: code, depth: depth, message: text))
        }
        var chain: [Certificate] = []
        if let built = X509_STORE_CTX_get1_chain(context) {
            // get1 returns new references; each Certificate takes ownership of one.
            for index in 0..<OPENSSL_sk_num(built) {
                if let raw = OPENSSL_sk_value(built, index), let certificate = Certificate(owning: OpaquePointer(raw)) {
                    chain.append(certificate)
                }
            }
            OPENSSL_sk_free(built)
        }
        return .success(VerifiedChain(certificates: chain))
    }
}
