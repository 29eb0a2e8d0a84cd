import Foundation
import TallyVerify

/// libFuzzer entry point: feeds each input to the receipt parser, both as raw DER and as base64 text,
/// and to the receipt verifier (Apple root). Any crash, trap or sanitizer report is a bug.
/// (The JWS verifier is not on main yet; add it here when it lands.)
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    _ = AppReceipt.parse(der: bytes)
    _ = AppReceipt.parse(base64: String(decoding: bytes, as: UTF8.self))
    _ = AppReceipt.transactionIdForMigration(base64: bytes.base64EncodedString())
    if let verifier = FuzzVerifier.shared {
        _ = verifier.verify(der: bytes)
    }
    return 0
}

/// One verifier for the whole run.
enum FuzzVerifier {
    static let shared: ReceiptVerifier? = try? ReceiptVerifier()
}
