import COpenSSL
import Foundation

/// An OpenSSL `EVP_PKEY` holding an EC P-256 private key; freed when the last reference goes.
///
/// `@unchecked Sendable` is safe: the key is created fully in `init` and never modified afterwards
/// (no setter is exposed, `pointer` is `let`). OpenSSL 3 documents `EVP_PKEY` as safe to use from
/// several threads at once for read-only operations (openssl-threads(7)); signing only reads the key
/// and every call uses its own `EVP_MD_CTX`, and OpenSSL guards its internal per-key provider cache
/// with the key's own lock.
final class PrivateKey: @unchecked Sendable {
    /// The owned `EVP_PKEY *`.
    let pointer: OpaquePointer

    private init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit { EVP_PKEY_free(pointer) }

    /// A fresh EC key on the P-256 curve (named-curve encoding).
    static func generateP256() throws(SigningError) -> PrivateKey {
        OpenSSLError.clear()
        let context = try OpenSSLError.require(EVP_PKEY_CTX_new_from_name(nil, "EC", nil), "EVP_PKEY_CTX_new_from_name")
        defer { EVP_PKEY_CTX_free(context) }
        try OpenSSLError.check(EVP_PKEY_keygen_init(context), "EVP_PKEY_keygen_init")
        try OpenSSLError.check(EVP_PKEY_CTX_set_group_name(context, "P-256"), "EVP_PKEY_CTX_set_group_name")
        var key: OpaquePointer?
        try OpenSSLError.check(EVP_PKEY_generate(context, &key), "EVP_PKEY_generate")
        return PrivateKey(taking: try OpenSSLError.require(key, "EVP_PKEY_generate"))
    }

    /// Parses an unencrypted PEM private key; `file` names the source in errors.
    static func fromPEM(_ data: Data, file: String) throws(SigningError) -> PrivateKey {
        OpenSSLError.clear()
        guard let key = MemoryBIO.parse(data, { PEM_read_bio_PrivateKey($0, nil, nil, nil) }) else {
            let cause = OpenSSLError.failure("PEM_read_bio_PrivateKey")
            throw SigningError(.corruptFile, "\(file) does not hold a PEM private key (\(cause.message)); "
                + "delete the sandbox's ca/ directory to create a new certificate authority", path: file)
        }
        let parsed = PrivateKey(taking: key)
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_EC, EVP_PKEY_get_bits(key) == 256 else {
            throw SigningError(.corruptFile, "\(file) holds a private key that is not EC P-256", path: file)
        }
        return parsed
    }

    /// The key as unencrypted PKCS#8 PEM.
    func pem() throws(SigningError) -> Data {
        try MemoryBIO.collect("PEM_write_bio_PrivateKey") { bio in
            PEM_write_bio_PrivateKey(bio, pointer, nil, nil, 0, nil, nil)
        }
    }
}
