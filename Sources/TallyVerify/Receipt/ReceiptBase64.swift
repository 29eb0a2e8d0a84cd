import Foundation

/// Decodes the base64 text of a receipt, tolerating the whitespace and line breaks receipts are often
/// wrapped with, and nothing else.
enum ReceiptBase64 {
    /// The bytes `text` encodes.
    static func decode(_ text: String) throws(VerificationFailure) -> [UInt8] {
        let compact = text.utf8.filter { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
        guard !compact.isEmpty else {
            throw VerificationFailure(.verificationFailure, "the receipt is empty; send the base64 of the app's receipt file")
        }
        guard let data = Data(base64Encoded: Data(compact)) else {
            throw VerificationFailure(
                .verificationFailure,
                "the receipt is not valid base64 (\(compact.count) characters); send the receipt file's bytes base64-encoded, unmodified")
        }
        return [UInt8](data)
    }
}
