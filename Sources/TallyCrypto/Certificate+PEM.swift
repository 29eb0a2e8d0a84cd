import COpenSSL
import Foundation

extension Certificate {
    /// Every certificate in `data`, which may be one DER certificate or PEM text with one or more
    /// `BEGIN CERTIFICATE` blocks. Empty when nothing parses.
    public static func parseAll(_ data: some Collection<UInt8>) -> [Certificate] {
        let bytes = Array(data)
        if let der = Certificate(der: bytes) { return [der] }
        return bytes.withUnsafeBytes { raw -> [Certificate] in
            guard let bio = MemoryBIO.reading(raw) else { return [] }
            defer { BIO_free(bio) }
            var result: [Certificate] = []
            while let x509 = PEM_read_bio_X509(bio, nil, nil, nil) {
                if let certificate = Certificate(owning: x509) { result.append(certificate) }
            }
            _ = CryptoError.drain()
            return result
        }
    }

    /// Parses the first PEM `BEGIN CERTIFICATE` block of `pem`; the error carries OpenSSL's reason.
    public static func fromPEM(_ pem: some Collection<UInt8>) throws(CryptoError) -> Certificate {
        CryptoError.clear()
        let parsed = try CryptoError.require(
            MemoryBIO.parse(pem) { PEM_read_bio_X509($0, nil, nil, nil) }, "PEM_read_bio_X509")
        return try CryptoError.require(Certificate(owning: parsed), "i2d_X509")
    }

    /// Parses a base64 (standard alphabet) DER certificate, as found in a JWS `x5c` header.
    public convenience init?(base64 text: String) {
        guard let data = Data(base64Encoded: text) else { return nil }
        self.init(der: data)
    }

    /// The certificate as PEM text.
    public var pem: String {
        let body = Data(der).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN CERTIFICATE-----\n\(body)\n-----END CERTIFICATE-----\n"
    }
}
