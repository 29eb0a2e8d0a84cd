import COpenSSL
import Foundation

extension ReceiptAttribute {
    /// The value as text, when it is a DER UTF8String or IA5String; nil for anything else.
    public var stringValue: String? {
        guard let element = try? ReceiptASN1.value(of: [UInt8](value)),
              element.tag == V_ASN1_UTF8STRING || element.tag == V_ASN1_IA5STRING
        else { return nil }
        return String(bytes: element.bytes, encoding: .utf8)
    }

    /// The value as a number, when it is a DER INTEGER that fits in 64 bits; nil for anything else.
    public var integerValue: Int64? {
        guard let element = try? ReceiptASN1.value(of: [UInt8](value)), element.tag == V_ASN1_INTEGER else { return nil }
        return element.integer
    }
}
