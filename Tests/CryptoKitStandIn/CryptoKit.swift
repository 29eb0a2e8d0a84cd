// CryptoKit, stood in: the part of Apple's CryptoKit that TallyStoreKit's Apple-path verifier and Tally's check of
// the server's signed answers use — P-256 public keys from their x9.63 or DER bytes and ECDSA signature checks over
// data — declared with CryptoKit's names, labels, types and `throws` as apple/swift-crypto (which mirrors
// CryptoKit's public API) declares them, so each one source compiles here (Linux) and, unchanged, against the real
// framework on Apple platforms.
//
// Implemented over TallyCrypto (OpenSSL): test support on Linux only. Package.swift declares this target only when
// the manifest is evaluated on Linux and TallyStoreKit depends on it only there (`.when(platforms: [.linux])`), so
// no Apple build ever compiles it and it cannot shadow the SDK's CryptoKit.
//
// Deviations from Apple's declarations:
// - `@available` attributes are left out (Linux has no Apple availability; CryptoKit's are iOS 13 / macOS 10.15).
// - `CryptoKitError` declares only the cases this stand-in throws.
// - Throws are untyped, as in CryptoKit's SDK interface (swift-crypto 4 declares `throws(CryptoKitMetaError)`).
import Foundation
import TallyCrypto

/// An error CryptoKit throws.
public enum CryptoKitError: Error {
    /// The key is not of the size or form the curve needs.
    case incorrectKeySize
    /// A parameter (such as a signature) is not of the size it must be.
    case incorrectParameterSize
}

/// The NIST P-256 elliptic curve.
public enum P256 {
    /// ECDSA over P-256 with SHA-256.
    public enum Signing {
        /// A P-256 public key used to verify signatures.
        public struct PublicKey: Sendable {
            let key: TallyCrypto.PublicKey

            /// Creates a key from its ANSI x9.63 (uncompressed point, `04 ‖ X ‖ Y`) representation.
            public init<Bytes: ContiguousBytes>(x963Representation: Bytes) throws {
                let point = x963Representation.withUnsafeBytes { Array($0) }
                guard point.count == 65, point.first == 0x04 else { throw CryptoKitError.incorrectKeySize }
                // SubjectPublicKeyInfo { id-ecPublicKey, prime256v1 } + the point as a BIT STRING.
                let prefix: [UInt8] = [
                    0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01, 0x06, 0x08, 0x2A,
                    0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00,
                ]
                guard let key = TallyCrypto.PublicKey(spki: prefix + point), key.isP256 else {
                    throw CryptoKitError.incorrectKeySize  // OpenSSL refuses a point off the curve
                }
                self.key = key
            }

            /// Creates a key from its Distinguished Encoding Rules (DER) encoded representation (SubjectPublicKeyInfo).
            public init<Bytes>(derRepresentation: Bytes) throws
                where Bytes: RandomAccessCollection, Bytes.Element == UInt8 {
                let der = Array(derRepresentation)
                // DER only (TallyCrypto would also read PEM): a SEQUENCE, and a P-256 key.
                guard der.first == 0x30, let key = TallyCrypto.PublicKey(spki: der), key.isP256 else {
                    throw CryptoKitError.incorrectKeySize
                }
                self.key = key
            }

            /// Verifies an ECDSA signature over the SHA-256 digest of `data`.
            public func isValidSignature<D: DataProtocol>(_ signature: P256.Signing.ECDSASignature, for data: D) -> Bool {
                let message = Array(data)
                return message.withUnsafeBytes { bytes in
                    ECDSA.verifyES256(message: bytes, rawSignature: Array(signature.rawRepresentation), key: key)
                }
            }
        }

        /// A P-256 ECDSA signature.
        public struct ECDSASignature: ContiguousBytes, Sendable {
            /// The raw signature: r ‖ s, 32 bytes each.
            public var rawRepresentation: Data

            /// Creates a signature from its raw representation (64 bytes).
            public init<D: DataProtocol>(rawRepresentation: D) throws {
                guard rawRepresentation.count == 64 else { throw CryptoKitError.incorrectParameterSize }
                self.rawRepresentation = Data(rawRepresentation)
            }

            /// Calls `body` with the raw signature bytes.
            public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
                try rawRepresentation.withUnsafeBytes(body)
            }
        }
    }
}
