import COpenSSL

/// One ASN.1 value decoded by OpenSSL: its universal tag and its bytes, copied out of OpenSSL's memory.
struct ReceiptASN1Element: Sendable {
    /// The universal tag (`V_ASN1_INTEGER`, `V_ASN1_SEQUENCE`, …).
    var tag: Int32
    /// Contents for primitive values; the whole encoding (header included) for SEQUENCE and SET.
    var bytes: [UInt8]
    /// The value of an INTEGER (or BOOLEAN) that fits in 64 bits.
    var integer: Int64?
}

/// Reads receipt payload structures with OpenSSL's ASN.1 decoder (`d2i_ASN1_SET_ANY`,
/// `d2i_ASN1_SEQUENCE_ANY`, `d2i_ASN1_TYPE`); no hand-written DER parsing.
enum ReceiptASN1 {
    /// The two constructed shapes a receipt uses.
    enum Shape: String {
        case set = "SET"
        case sequence = "SEQUENCE"
    }

    /// Why bytes did not decode; the caller adds which field it was.
    struct DecodingError: Error {
        var detail: String
    }

    /// Decodes `bytes` as a SET OF / SEQUENCE OF any values; the bytes must hold exactly one collection.
    static func elements(of bytes: [UInt8], as shape: Shape) throws(DecodingError) -> [ReceiptASN1Element] {
        ERR_clear_error()
        defer { ERR_clear_error() }
        var consumed = 0
        let stack: OpaquePointer? = bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return nil }
            var cursor: UnsafePointer<UInt8>? = base
            let result = switch shape {
            case .set: d2i_ASN1_SET_ANY(nil, &cursor, buffer.count)
            case .sequence: d2i_ASN1_SEQUENCE_ANY(nil, &cursor, buffer.count)
            }
            if let cursor { consumed = cursor - base }
            return result
        }
        guard let stack else {
            throw DecodingError(detail: "not a DER \(shape.rawValue) (\(bytes.count) bytes)")
        }
        defer { OPENSSL_sk_pop_free(stack, { ASN1_TYPE_free($0?.assumingMemoryBound(to: ASN1_TYPE.self)) }) }
        guard consumed == bytes.count else {
            throw DecodingError(detail: "\(bytes.count - consumed) trailing bytes after the \(shape.rawValue)")
        }
        let count = Int(OPENSSL_sk_num(stack))
        var result: [ReceiptASN1Element] = []
        result.reserveCapacity(max(count, 0))
        for index in 0..<max(count, 0) {
            guard let raw = OPENSSL_sk_value(stack, Int32(index)) else {
                throw DecodingError(detail: "element \(index) of the \(shape.rawValue) is missing")
            }
            result.append(element(raw.assumingMemoryBound(to: ASN1_TYPE.self)))
        }
        return result
    }

    /// Decodes `bytes` as exactly one ASN.1 value.
    static func value(of bytes: [UInt8]) throws(DecodingError) -> ReceiptASN1Element {
        ERR_clear_error()
        defer { ERR_clear_error() }
        var consumed = 0
        let decoded: UnsafeMutablePointer<ASN1_TYPE>? = bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return nil }
            var cursor: UnsafePointer<UInt8>? = base
            let result = d2i_ASN1_TYPE(nil, &cursor, buffer.count)
            if let cursor { consumed = cursor - base }
            return result
        }
        guard let decoded else { throw DecodingError(detail: "not a DER value (\(bytes.count) bytes)") }
        defer { ASN1_TYPE_free(decoded) }
        guard consumed == bytes.count else {
            throw DecodingError(detail: "\(bytes.count - consumed) trailing bytes after the value")
        }
        return element(decoded)
    }

    /// Copies one decoded value out of OpenSSL's memory.
    private static func element(_ type: UnsafeMutablePointer<ASN1_TYPE>) -> ReceiptASN1Element {
        let tag = type.pointee.type
        switch tag {
        case V_ASN1_BOOLEAN:
            return ReceiptASN1Element(tag: tag, bytes: [], integer: Int64(type.pointee.value.boolean))
        case V_ASN1_NULL, V_ASN1_OBJECT:
            return ReceiptASN1Element(tag: tag, bytes: [], integer: nil)
        default:
            let string = type.pointee.value.asn1_string
            var integer: Int64?
            if tag == V_ASN1_INTEGER, let string {
                var value: Int64 = 0
                if ASN1_INTEGER_get_int64(&value, string) == 1 { integer = value }
            }
            return ReceiptASN1Element(tag: tag, bytes: copy(string), integer: integer)
        }
    }

    /// The data of an OpenSSL string, copied.
    static func copy(_ string: UnsafePointer<ASN1_STRING>?) -> [UInt8] {
        guard let string, let data = ASN1_STRING_get0_data(string) else { return [] }
        let length = Int(ASN1_STRING_length(string))
        guard length > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: length))
    }

    /// A readable name for a universal tag, for error details.
    static func name(of tag: Int32) -> String {
        switch tag {
        case V_ASN1_INTEGER: "INTEGER"
        case V_ASN1_OCTET_STRING: "OCTET STRING"
        case V_ASN1_UTF8STRING: "UTF8String"
        case V_ASN1_IA5STRING: "IA5String"
        case V_ASN1_SEQUENCE: "SEQUENCE"
        case V_ASN1_SET: "SET"
        default: "ASN.1 tag \(tag)"
        }
    }
}
