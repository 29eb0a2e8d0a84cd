import COpenSSL

/// OpenSSL's process-wide set-up, for a program's `main` (never a library's) to make before anything else uses
/// OpenSSL.
public enum OpenSSLProcess {
    /// Keeps OpenSSL's global state until the process ends instead of freeing it in the `atexit` handler OpenSSL
    /// installs by default (`OPENSSL_INIT_NO_ATEXIT`). That handler frees tables that a thread still ending at
    /// `exit` frees again through its thread-local state: a server whose worker threads had verified signatures
    /// aborted with "double free or corruption" in about one SIGTERM in twenty under load. The memory goes back to
    /// the system with the process anyway. Takes effect only as the process's first call into OpenSSL; returns
    /// false when OpenSSL refused it.
    @discardableResult
    public static func keepStateUntilExit() -> Bool {
        OPENSSL_init_crypto(UInt64(OPENSSL_INIT_NO_ATEXIT), nil) == 1
    }
}
