import TallyCrypto

extension SigningError {
    /// An `.openSSL` error carrying the OpenSSL call and reason of `error`.
    init(_ error: CryptoError) {
        self.init(.openSSL, error.description)
    }

    /// Runs `body`, turning a ``CryptoError`` into an `.openSSL` signing error.
    static func openSSL<T>(_ body: () throws(CryptoError) -> T) throws(SigningError) -> T {
        do {
            return try body()
        } catch {
            throw SigningError(error)
        }
    }
}
