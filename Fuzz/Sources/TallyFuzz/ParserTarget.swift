import Foundation
import TallyVerify

/// The receipt and JWS parsers: each input as raw DER and as base64 text to the receipt parser, to the
/// receipt verifier (Apple root), and as text to the JWS verifier (header, x5c, chain, payload decoding).
enum ParserTarget {
    static func run(_ bytes: Data) {
        _ = AppReceipt.parse(der: bytes)
        _ = AppReceipt.parse(base64: String(decoding: bytes, as: UTF8.self))
        _ = AppReceipt.transactionIdForMigration(base64: bytes.base64EncodedString())
        if let verifier = FuzzVerifier.shared {
            _ = verifier.verify(der: bytes)
        }
        if let jws = FuzzVerifier.jws {
            _ = jws.verifyDetectingKind(String(decoding: bytes, as: UTF8.self))
        }
    }
}

/// One verifier for the whole run.
enum FuzzVerifier {
    static let shared: ReceiptVerifier? = try? ReceiptVerifier()
    /// Apple Root CA - G3, no bundle id check, sandbox: every parsing and chain path is reachable.
    static let jws: SignedDataVerifier? = try? SignedDataVerifier(bundleId: nil, environment: .sandbox)
}
