// Security, stood in: the part of Apple's Security framework that TallyStoreKit's Apple-path verifier uses —
// certificates from DER, their keys' external representation, and X.509 trust evaluation (SecTrust) against given
// anchors at a given date — declared with the names, labels and types Apple documents (the Swift interface of
// SecCertificate.h, SecKey.h, SecPolicy.h, SecTrust.h), so the verifier's one source compiles here (Linux) and,
// unchanged, against the real framework on Apple platforms.
//
// Implemented over TallyCrypto (OpenSSL): test support on Linux only. Package.swift declares this target only when
// the manifest is evaluated on Linux and TallyStoreKit depends on it only there (`.when(platforms: [.linux])`), so
// no Apple build ever compiles it and it cannot shadow the SDK's Security.
//
// Deviations from Apple's declarations, each the smallest that lets the same source compile on both:
// - Core Foundation types. Linux's Foundation has none and no toll-free bridging, so `as CFData`, `as CFArray`,
//   `as CFDate` are made to compile by typealiases: `CFData = Data`, `CFArray = [Any]`, `CFDate = Date`,
//   `CFTypeRef = Any` (Apple: CF classes bridged by `as`; `CFTypeRef` is `AnyObject`). `CFError` and
//   `CFAllocator` are empty-ish classes here (Apple: CF types; `CFError` bridges to `Error`); only a nil allocator
//   is meaningful. On Apple platforms `import Security` brings the real CF types (Security re-exports
//   CoreFoundation), so these names exist there too.
// - `SecCertificate`, `SecKey`, `SecPolicy`, `SecTrust` are final classes here (Apple: CF types); none is declared
//   `Sendable`, so code that compiles here does not share them across threads.
// - `errSecSuccess` and `errSecParam` are the only `OSStatus` codes declared; every other failure is reported as
//   `errSecParam`.
// - Trust evaluation is OpenSSL's X.509 chain verification (TallyCrypto's `TrustStore`) at the verify date, not
//   Apple's trust engine: there are no system anchors (anchors must be set; `SecTrustSetAnchorCertificatesOnly`
//   is recorded but changes nothing), no network fetches ever happen, and the policy is always basic X.509.
// - `@available` attributes are left out (`SecTrustCopyCertificateChain` is iOS 15 / macOS 12 on Apple platforms).
import Foundation
import TallyCrypto
import TallySignedData

/// Core Foundation's data type, as this stand-in spells it (see the header comment).
public typealias CFData = Data
/// Core Foundation's array type, as this stand-in spells it (see the header comment).
public typealias CFArray = [Any]
/// Core Foundation's date type, as this stand-in spells it (see the header comment).
public typealias CFDate = Date
/// Any Core Foundation object, as this stand-in spells it (see the header comment).
public typealias CFTypeRef = Any

/// A Core Foundation allocator; pass nil for the default.
public final class CFAllocator {}

/// An error a Security function reports.
public final class CFError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public let description: String
    init(_ description: String) { self.description = description }
}

/// A result code of a Security function.
public typealias OSStatus = Int32

/// No error.
public var errSecSuccess: OSStatus { 0 }
/// One or more parameters passed to a function are not valid.
public var errSecParam: OSStatus { -50 }

/// An X.509 certificate.
public final class SecCertificate {
    let certificate: Certificate
    init(_ certificate: Certificate) { self.certificate = certificate }
}

/// A public key.
public final class SecKey {
    let key: PublicKey
    init(_ key: PublicKey) { self.key = key }
}

/// A trust policy.
public final class SecPolicy {}

/// Creates a certificate from its DER encoding; nil if `data` is not one DER certificate.
public func SecCertificateCreateWithData(_ allocator: CFAllocator?, _ data: CFData) -> SecCertificate? {
    Certificate(der: data).map(SecCertificate.init)
}

/// The certificate's DER encoding.
public func SecCertificateCopyData(_ certificate: SecCertificate) -> CFData {
    Data(certificate.certificate.der)
}

/// The certificate's public key; nil if it cannot be read.
public func SecCertificateCopyKey(_ certificate: SecCertificate) -> SecKey? {
    certificate.certificate.publicKey.map(SecKey.init)
}

/// The key's external representation: for an elliptic-curve public key the x9.63 point (`04 ‖ X ‖ Y`), for RSA
/// the PKCS #1 `RSAPublicKey` — both are the content of the SubjectPublicKeyInfo's BIT STRING.
public func SecKeyCopyExternalRepresentation(
    _ key: SecKey, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? {
    do throws(DERError) {
        var outer = DERReader(ArraySlice(key.key.spki))
        var info = try outer.read(tag: 0x30, "SubjectPublicKeyInfo").children
        _ = try info.read(tag: 0x30, "the algorithm")
        let bits = try info.read(tag: 0x03, "the key bits")
        guard bits.content.first == 0 else { throw DERError("the key's BIT STRING has unused bits") }
        return Data(bits.content.dropFirst())
    } catch let failure {
        error?.pointee = Unmanaged.passRetained(CFError("the key has no external representation: \(failure)"))
        return nil
    }
}

/// The basic X.509 policy: a chain of valid signatures and validity periods up to an anchor.
public func SecPolicyCreateBasicX509() -> SecPolicy { SecPolicy() }
