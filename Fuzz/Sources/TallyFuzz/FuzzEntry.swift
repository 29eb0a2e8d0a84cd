import Foundation
import TallyVerify

/// libFuzzer entry point: feeds each input to the receipt parser, both as raw DER and as base64 text,
/// to the receipt verifier (Apple root), and as text to the JWS verifier (header, x5c, chain, payload
/// decoding). Any crash, trap or sanitizer report is a bug.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    _ = AppReceipt.parse(der: bytes)
    _ = AppReceipt.parse(base64: String(decoding: bytes, as: UTF8.self))
    _ = AppReceipt.transactionIdForMigration(base64: bytes.base64EncodedString())
    if let verifier = FuzzVerifier.shared {
        _ = verifier.verify(der: bytes)
    }
    if let jws = FuzzVerifier.jws {
        _ = jws.verifyDetectingKind(String(decoding: bytes, as: UTF8.self))
    }
    return 0
}

/// One verifier for the whole run.
enum FuzzVerifier {
    static let shared: ReceiptVerifier? = try? ReceiptVerifier()
    /// Apple Root CA - G3, no bundle id check, sandbox: every parsing and chain path is reachable.
    static let jws: SignedDataVerifier? = try? SignedDataVerifier(bundleId: nil, environment: .sandbox)
}
