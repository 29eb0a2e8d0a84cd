/// The X.509 v3 extensions of a DER certificate, read with ``DERReader`` — what Apple's verifiers check beyond the
/// chain (the marker OIDs, CA status) where the platform cannot say (iOS's Security has no
/// `SecCertificateCopyValues`). Strict: a certificate that is not one clean DER `Certificate`, or that repeats an
/// extension (RFC 5280 §4.2), is an error.
package struct CertificateExtensions: Sendable {
    /// One extension: its OID's content octets, criticality and `extnValue` octets.
    package struct Extension: Sendable {
        /// The OID's DER content octets.
        package var oid: ArraySlice<UInt8>
        /// Whether the extension is marked critical.
        package var critical: Bool
        /// The `extnValue` octets (a DER encoding of the extension's own value).
        package var value: ArraySlice<UInt8>
    }

    /// The extensions, in certificate order.
    package var extensions: [Extension]

    /// basicConstraints, 2.5.29.19.
    static let basicConstraints: [UInt8] = [0x55, 0x1D, 0x13]

    /// Reads the extensions of the certificate `der` (none for a v1 certificate).
    package init(certificate der: some Collection<UInt8>) throws(DERError) {
        let bytes = ArraySlice(Array(der))
        var outer = DERReader(bytes)
        let certificate = try outer.read(tag: 0x30, "the certificate")
        guard outer.isAtEnd else { throw DERError("bytes follow the certificate") }
        var fields = certificate.children
        var tbs = try fields.read(tag: 0x30, "tbsCertificate").children
        _ = try tbs.readIfPresent(tag: 0xA0)  // version
        _ = try tbs.read(tag: 0x02, "the serial number")
        for name in ["the signature algorithm", "the issuer", "the validity", "the subject", "the public key"] {
            _ = try tbs.read(tag: 0x30, name)
        }
        _ = try tbs.readIfPresent(tag: 0x81)  // issuerUniqueID
        _ = try tbs.readIfPresent(tag: 0x82)  // subjectUniqueID
        var found: [Extension] = []
        if let wrapper = try tbs.readIfPresent(tag: 0xA3) {
            var explicit = wrapper.children
            var list = try explicit.read(tag: 0x30, "the extension list").children
            guard explicit.isAtEnd else { throw DERError("bytes follow the extension list") }
            while !list.isAtEnd {
                let item = try Self.extensionItem(try list.read(tag: 0x30, "an extension"))
                guard !found.contains(where: { $0.oid.elementsEqual(item.oid) }) else {
                    throw DERError("the certificate repeats an extension")
                }
                found.append(item)
            }
        }
        guard tbs.isAtEnd else { throw DERError("tbsCertificate holds fields after its extensions") }
        extensions = found
    }

    /// Whether an extension with the dotted `oid` is present (whatever its value).
    package func contains(oid: String) -> Bool {
        guard let encoded = DERReader.objectIdentifier(oid) else { return false }
        return extensions.contains { $0.oid.elementsEqual(encoded) }
    }

    /// Whether basicConstraints says `cA: TRUE`; false without basicConstraints or when it does not read.
    package var isCA: Bool {
        guard let constraints = extensions.first(where: { $0.oid.elementsEqual(Self.basicConstraints) }) else {
            return false
        }
        var value = DERReader(constraints.value)
        guard let sequence = try? value.read(tag: 0x30, "basicConstraints"), value.isAtEnd else { return false }
        var fields = sequence.children
        guard let flag = try? fields.readIfPresent(tag: 0x01) else { return false }
        return flag.content.count == 1 && flag.content.first == 0xFF
    }

    static func extensionItem(_ element: DERReader.Element) throws(DERError) -> Extension {
        var fields = element.children
        let oid = try fields.read(tag: 0x06, "an extension's OID")
        guard !oid.content.isEmpty, oid.content.last.map({ $0 & 0x80 == 0 }) == true else {
            throw DERError("an extension's OID is malformed")
        }
        var critical = false
        if let flag = try fields.readIfPresent(tag: 0x01) {
            guard flag.content.count == 1, flag.content.first == 0xFF else {
                throw DERError("an extension's critical flag is not DER TRUE")  // DER omits a FALSE default
            }
            critical = true
        }
        let value = try fields.read(tag: 0x04, "an extension's value")
        guard fields.isAtEnd else { throw DERError("an extension holds more than OID, critical and value") }
        return Extension(oid: oid.content, critical: critical, value: value.content)
    }
}
