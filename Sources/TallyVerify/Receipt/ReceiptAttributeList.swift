import COpenSSL
import Foundation

/// The attributes of a receipt payload or of one in-app record, with typed access to the known types.
///
/// A known type appearing twice is refused: a second bundle id or transaction id would make the
/// receipt mean two things.
struct ReceiptAttributeList {
    /// Where the attributes come from, for error details ("receipt payload", "in-app purchase record 2").
    let context: String
    private let known: [Int: ReceiptAttribute]
    /// Attributes whose type is not in the known set, in encoding order.
    let unknown: [ReceiptAttribute]

    /// Decodes `bytes` as `SET OF ReceiptAttribute` and sorts the attributes into known and unknown.
    init(decoding bytes: [UInt8], knownTypes: Set<Int>, context: String) throws(VerificationFailure) {
        self.context = context
        let elements: [ReceiptASN1Element]
        do {
            elements = try ReceiptASN1.elements(of: bytes, as: .set)
        } catch {
            throw VerificationFailure(.verificationFailure, "\(context) is not a SET of receipt attributes: \(error.detail)")
        }
        var known: [Int: ReceiptAttribute] = [:]
        var unknown: [ReceiptAttribute] = []
        for (index, element) in elements.enumerated() {
            let attribute = try Self.attribute(element, index: index, context: context)
            if knownTypes.contains(attribute.type) {
                guard known[attribute.type] == nil else {
                    throw VerificationFailure(.verificationFailure, "\(context) holds attribute type \(attribute.type) twice")
                }
                known[attribute.type] = attribute
            } else {
                unknown.append(attribute)
            }
        }
        self.known = known
        self.unknown = unknown
    }

    /// Reads one `SEQUENCE { type INTEGER, version INTEGER, value OCTET STRING }`.
    private static func attribute(
        _ element: ReceiptASN1Element, index: Int, context: String
    ) throws(VerificationFailure) -> ReceiptAttribute {
        let what = "\(context), element \(index)"
        guard element.tag == V_ASN1_SEQUENCE else {
            throw VerificationFailure(.verificationFailure, "\(what) is a \(ReceiptASN1.name(of: element.tag)), expected a SEQUENCE")
        }
        let fields: [ReceiptASN1Element]
        do {
            fields = try ReceiptASN1.elements(of: element.bytes, as: .sequence)
        } catch {
            throw VerificationFailure(.verificationFailure, "\(what): \(error.detail)")
        }
        guard fields.count == 3, fields[0].tag == V_ASN1_INTEGER, fields[1].tag == V_ASN1_INTEGER,
              fields[2].tag == V_ASN1_OCTET_STRING
        else {
            let shape = fields.map { ReceiptASN1.name(of: $0.tag) }.joined(separator: ", ")
            throw VerificationFailure(
                .verificationFailure, "\(what) is SEQUENCE { \(shape) }, expected { INTEGER, INTEGER, OCTET STRING }")
        }
        guard let type = fields[0].integer, let typeNumber = Int(exactly: type), typeNumber >= 0 else {
            throw VerificationFailure(.verificationFailure, "\(what) has an attribute type that is not a small positive number")
        }
        let version = fields[1].integer.flatMap { Int(exactly: $0) } ?? -1
        return ReceiptAttribute(type: typeNumber, version: version, value: Data(fields[2].bytes))
    }

    /// The raw value of a known attribute.
    func bytes(_ type: Int) -> Data? { known[type]?.value }

    /// The DER value of a known attribute, checked to carry one of `tags`.
    private func element(_ type: Int, _ name: String, tags: [Int32]) throws(VerificationFailure) -> ReceiptASN1Element? {
        guard let attribute = known[type] else { return nil }
        let element: ReceiptASN1Element
        do {
            element = try ReceiptASN1.value(of: [UInt8](attribute.value))
        } catch {
            throw VerificationFailure(.verificationFailure, "\(context): attribute \(type) (\(name)) \(error.detail)")
        }
        guard tags.contains(element.tag) else {
            let expected = tags.map(ReceiptASN1.name(of:)).joined(separator: " or ")
            throw VerificationFailure(
                .verificationFailure,
                "\(context): attribute \(type) (\(name)) is a \(ReceiptASN1.name(of: element.tag)), expected \(expected)")
        }
        return element
    }

    /// A UTF8String or IA5String attribute.
    func string(_ type: Int, _ name: String) throws(VerificationFailure) -> String? {
        guard let element = try element(type, name, tags: [V_ASN1_UTF8STRING, V_ASN1_IA5STRING]) else { return nil }
        guard let text = String(bytes: element.bytes, encoding: .utf8) else {
            throw VerificationFailure(.verificationFailure, "\(context): attribute \(type) (\(name)) is not valid UTF-8")
        }
        return text
    }

    /// An INTEGER attribute that fits in 64 bits.
    func integer(_ type: Int, _ name: String) throws(VerificationFailure) -> Int64? {
        guard let element = try element(type, name, tags: [V_ASN1_INTEGER]) else { return nil }
        guard let value = element.integer else {
            throw VerificationFailure(.verificationFailure, "\(context): attribute \(type) (\(name)) does not fit in 64 bits")
        }
        return value
    }

    /// An INTEGER attribute holding 0 or 1.
    func flag(_ type: Int, _ name: String) throws(VerificationFailure) -> Bool? {
        guard let value = try integer(type, name) else { return nil }
        guard value == 0 || value == 1 else {
            throw VerificationFailure(.verificationFailure, "\(context): attribute \(type) (\(name)) is \(value), expected 0 or 1")
        }
        return value == 1
    }

    /// An RFC 3339 date attribute; an empty string reads as nil.
    func date(_ type: Int, _ name: String) throws(VerificationFailure) -> Date? {
        guard let text = try string(type, name) else { return nil }
        do {
            return try ReceiptDate.parse(text)
        } catch {
            throw VerificationFailure(.verificationFailure, "\(context): attribute \(type) (\(name)): \(error.detail)")
        }
    }

    /// Fails with a clear detail when a required attribute is absent.
    func required<T>(_ value: T?, _ type: Int, _ name: String) throws(VerificationFailure) -> T {
        guard let value else {
            throw VerificationFailure(.verificationFailure, "\(context) has no attribute \(type) (\(name))")
        }
        return value
    }
}
