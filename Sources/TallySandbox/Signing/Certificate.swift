import COpenSSL
import Foundation

/// An OpenSSL `X509` certificate; freed when the last reference goes.
///
/// Never shared across threads: certificates live only while the authority is generated or loaded,
/// then only their DER/PEM bytes are kept.
final class Certificate {
    /// The owned `X509 *`.
    let pointer: OpaquePointer

    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit { X509_free(pointer) }

    /// Parses a PEM certificate; `file` names the source in errors.
    static func fromPEM(_ data: Data, file: String) throws(SigningError) -> Certificate {
        OpenSSLError.clear()
        guard let cert = MemoryBIO.parse(data, { PEM_read_bio_X509($0, nil, nil, nil) }) else {
            let cause = OpenSSLError.failure("PEM_read_bio_X509")
            throw SigningError(.corruptFile, "\(file) does not hold a PEM certificate (\(cause.message)); "
                + "delete the sandbox's ca/ directory to create a new certificate authority", path: file)
        }
        return Certificate(taking: cert)
    }

    /// The certificate as PEM text.
    func pem() throws(SigningError) -> Data {
        try MemoryBIO.collect("PEM_write_bio_X509") { PEM_write_bio_X509($0, pointer) }
    }

    /// The certificate as DER bytes.
    func der() throws(SigningError) -> Data {
        let length = i2d_X509(pointer, nil)
        guard length > 0 else { throw OpenSSLError.failure("i2d_X509") }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        let written = bytes.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor = buffer.baseAddress
            return i2d_X509(pointer, &cursor)
        }
        guard written == length else { throw OpenSSLError.failure("i2d_X509") }
        return Data(bytes)
    }

    /// True when `issuer`'s public key verifies this certificate's signature.
    func isSigned(by issuer: Certificate) -> Bool {
        guard let key = X509_get0_pubkey(issuer.pointer) else { return false }
        defer { OpenSSLError.clear() }
        return X509_verify(pointer, key) == 1
    }

    /// True when `key` is the private key of this certificate's public key.
    func matches(_ key: PrivateKey) -> Bool {
        defer { OpenSSLError.clear() }
        return X509_check_private_key(pointer, key.pointer) == 1
    }
}
