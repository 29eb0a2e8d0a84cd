import Foundation
import TallyCore
import TallyCrypto
import TallySignedData

/// Certificates issued here with TallyCrypto, shaped like Apple's (root, WWDR-like intermediate with its marker,
/// signing leaf with its marker), and the ways a chain or a JWS can be wrong.
struct GeneratedPKI {
    static let bundleId = "com.tally.parity"
    /// Inside every certificate's validity unless a case says otherwise (2026-06-01).
    static let signedDate = Date(timeIntervalSince1970: 1_780_272_000)
    static let start = Date(timeIntervalSince1970: 1_735_689_600)  // 2025-01-01
    static let end = Date(timeIntervalSince1970: 2_051_222_400)  // 2035-01-01

    struct Chain {
        var leafKey: PrivateKey
        var certificates: [Certificate]
        var signer: JWSSigner { JWSSigner(key: leafKey, chain: certificates) }
    }

    let rootKey: PrivateKey
    let root: Certificate

    init() throws {
        rootKey = try PrivateKey.newP256()
        root = try Certificate.issue(Self.profile("Parity Root", ca: true, marker: nil), key: rootKey, issuer: nil,
                                     notBefore: Self.start, notAfter: Self.end)
    }

    static func profile(_ name: String, ca: Bool, marker: String?) -> CertificateProfile {
        CertificateProfile(commonName: name, organization: "Tally Parity",
                           basicConstraints: ca ? "critical,CA:TRUE" : "critical,CA:FALSE",
                           keyUsage: ca ? "critical,keyCertSign,cRLSign" : "critical,digitalSignature",
                           markerOID: marker)
    }

    /// A leaf and intermediate under this root (or under `otherRoot`), each shaped as asked.
    func chain(intermediateMarker: String? = AppleSignedData.intermediateMarkerOID, intermediateIsCA: Bool = true,
               leafMarker: String? = AppleSignedData.leafMarkerOID, leafNotAfter: Date = end,
               under otherRoot: (Certificate, PrivateKey)? = nil) throws -> Chain {
        let (issuerCertificate, issuerKey) = otherRoot ?? (root, rootKey)
        let intermediateKey = try PrivateKey.newP256()
        let intermediate = try Certificate.issue(
            Self.profile("Parity Intermediate", ca: intermediateIsCA, marker: intermediateMarker), key: intermediateKey,
            issuer: Certificate.Issuer(certificate: issuerCertificate, key: issuerKey),
            notBefore: Self.start, notAfter: Self.end)
        let leafKey = try PrivateKey.newP256()
        let leaf = try Certificate.issue(
            Self.profile("Parity Signing", ca: false, marker: leafMarker), key: leafKey,
            issuer: Certificate.Issuer(certificate: intermediate, key: intermediateKey),
            notBefore: Self.start, notAfter: leafNotAfter)
        return Chain(leafKey: leafKey, certificates: [leaf, intermediate, issuerCertificate])
    }

    /// A sandbox transaction of the parity app, signed at ``signedDate``.
    static var transaction: StoreTransaction {
        StoreTransaction(transactionId: "2000000000000042", bundleId: bundleId, productId: "com.tally.parity.coins",
                         purchaseDate: signedDate.addingTimeInterval(-60), quantity: 1, type: .consumable,
                         signedDate: signedDate, environment: .sandbox)
    }

    /// The header `signer` writes, with `extra` JSON members added and `alg` replaced.
    static func header(_ signer: JWSSigner, alg: String = "ES256", extra: String = "") -> String {
        let x5c = signer.chain.map { "\"\(Data($0.der).base64EncodedString())\"" }.joined(separator: ",")
        return #"{"alg":"\#(alg)","x5c":[\#(x5c)]\#(extra)}"#
    }

    /// Each generated case: a name, its JWS, and whether both verifiers must accept it.
    func cases() throws -> [(name: String, jws: String, accepted: Bool)] {
        let good = try chain()
        let transaction = Self.transaction
        func sign(_ chain: Chain, header: String? = nil) throws -> String {
            guard let jws = chain.signer.sign(transaction, header: header) else { throw CryptoError.failure("sign", "") }
            return jws
        }
        let valid = try sign(good)
        let parts = valid.split(separator: ".").map(String.init)
        var signature = try Base64URL.decode(parts[2]).unwrap()
        signature[10] ^= 0x01
        var other = transaction
        other.quantity = 1000
        let otherPayload = Base64URL.encode(try JSONEncoder().encode(other))
        let foreignKey = try PrivateKey.newP256()
        let foreignRoot = try Certificate.issue(Self.profile("Parity Root", ca: true, marker: nil), key: foreignKey,
                                                issuer: nil, notBefore: Self.start, notAfter: Self.end)
        let twoCertificates = #"{"alg":"ES256","x5c":["# + good.certificates.prefix(2)
            .map { "\"\(Data($0.der).base64EncodedString())\"" }.joined(separator: ",") + "]}"
        return [
            ("a good chain and signature", valid, true),
            ("a chain to another root of the same name",
             try sign(try chain(under: (foreignRoot, foreignKey))), false),
            ("a leaf without Apple's signing marker", try sign(try chain(leafMarker: nil)), false),
            ("an intermediate without Apple's WWDR marker", try sign(try chain(intermediateMarker: nil)), false),
            ("a leaf expired before signedDate",
             try sign(try chain(leafNotAfter: Self.signedDate.addingTimeInterval(-86_400))), false),
            ("an intermediate that is not a CA", try sign(try chain(intermediateIsCA: false)), false),
            ("a signature with one bit flipped", parts[0] + "." + parts[1] + "." + Base64URL.encode(signature), false),
            ("a payload changed after signing", parts[0] + "." + otherPayload + "." + parts[2], false),
            ("alg none", try sign(good, header: Self.header(good.signer, alg: "none")), false),
            ("a crit header", try sign(good, header: Self.header(good.signer, extra: #","crit":["exp"]"#)), false),
            ("an x5c of two certificates", try sign(good, header: twoCertificates), false),
            ("a signature that is not 64 bytes", parts[0] + "." + parts[1] + "." + Base64URL.encode(signature + [0]), false),
        ]
    }
}

extension Optional {
    /// The value, or a thrown error naming what was missing.
    func unwrap(_ what: String = "value") throws -> Wrapped {
        guard let self else { throw CryptoError.failure("unwrap", what) }
        return self
    }
}
