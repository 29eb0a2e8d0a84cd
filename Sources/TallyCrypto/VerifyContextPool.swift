import COpenSSL
import Foundation

/// Verification contexts (`EVP_PKEY_CTX`) of one key, initialised once and reused: creating and
/// initialising a context costs about a seventh of a P-256 verification (provider look-ups).
///
/// `@unchecked Sendable`: `idle` is read and written only while holding `lock`, and a context is used
/// by one thread at a time — taken out of `idle` before use and put back after.
final class VerifyContextPool: @unchecked Sendable {
    private let lock = NSLock()
    private var idle: [OpaquePointer] = []
    /// Most idle contexts kept (more threads than this just create and free their own).
    private let limit = 16

    init() {}

    deinit { for context in idle { EVP_PKEY_CTX_free(context) } }

    /// Runs `body` with a context ready for `EVP_PKEY_verify` with `pkey`; nil when OpenSSL cannot make one.
    /// `body` returns the verify result; a context that reported an error (< 0) is not reused.
    func withContext(for pkey: OpaquePointer, _ body: (OpaquePointer) -> Int32) -> Int32? {
        let reused: OpaquePointer? = lock.withLock { idle.popLast() }
        let context: OpaquePointer
        if let reused {
            context = reused
        } else {
            guard let fresh = EVP_PKEY_CTX_new_from_pkey(nil, pkey, nil) else { return nil }
            guard EVP_PKEY_verify_init(fresh) == 1 else {
                EVP_PKEY_CTX_free(fresh)
                return nil
            }
            context = fresh
        }
        let result = body(context)
        if result < 0 {
            EVP_PKEY_CTX_free(context)
            return result
        }
        let kept = lock.withLock { () -> Bool in
            guard idle.count < limit else { return false }
            idle.append(context)
            return true
        }
        if !kept { EVP_PKEY_CTX_free(context) }
        return result
    }
}
