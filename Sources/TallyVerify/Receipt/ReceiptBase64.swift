import Foundation

/// Decodes the base64 text of a receipt, tolerating the whitespace and line breaks receipts are often
/// wrapped with, and nothing else.
enum ReceiptBase64 {
    /// The bytes `text` encodes.
    static func decode(_ text: String) throws(VerificationFailure) -> [UInt8] {
        if !text.isEmpty, let data = Data(base64Encoded: text) { return [UInt8](data) }
        var text = text
        let compact: [UInt8] = text.withUTF8 { utf8 in
            var bytes: [UInt8] = []
            bytes.reserveCapacity(utf8.count)
            for byte in utf8 where byte != 0x20 && byte != 0x0A && byte != 0x0D && byte != 0x09 { bytes.append(byte) }
            return bytes
        }
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
