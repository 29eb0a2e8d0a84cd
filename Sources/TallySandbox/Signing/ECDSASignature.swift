import COpenSSL
import Foundation

/// Converts OpenSSL's DER `ECDSA-Sig-Value` into the JWS form: r and s, each 32 bytes big-endian,
/// left-padded with zeros, concatenated (RFC 7518 §3.4).
enum ECDSASignature {
    /// Bytes of each of r and s on P-256.
    static let componentLength = 32

    /// The 64-byte r‖s of a DER ECDSA signature.
    static func raw(fromDER der: [UInt8]) throws(SigningError) -> Data {
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
        }
        let signature = try OpenSSLError.require(parsed, "d2i_ECDSA_SIG")
        defer { ECDSA_SIG_free(signature) }
        var r: OpaquePointer?, s: OpaquePointer?
        ECDSA_SIG_get0(signature, &r, &s)
        var output = [UInt8](repeating: 0, count: componentLength * 2)
        let written = output.withUnsafeMutableBufferPointer { buffer -> (Int32, Int32) in
            guard let base = buffer.baseAddress, let r, let s else { return (-1, -1) }
            return (BN_bn2binpad(r, base, Int32(componentLength)),
                    BN_bn2binpad(s, base + componentLength, Int32(componentLength)))
        }
        guard written == (Int32(componentLength), Int32(componentLength)) else {
            throw OpenSSLError.failure("BN_bn2binpad", "ECDSA signature component longer than 32 bytes")
        }
        return Data(output)
    }
}
