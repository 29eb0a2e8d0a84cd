import Foundation
import TallyCrypto
import TallySignedData
import Testing

/// The strict DER reader behind the Apple path's marker-OID and CA checks, on real certificates and hostile bytes.
@Suite("Certificate extensions read from DER")
struct CertificateExtensionsTests {
    @Test("markers and CA status read as OpenSSL reads them, on Apple's root and on generated certificates")
    func agreesWithOpenSSL() throws {
        let pki = try GeneratedPKI()
        let chains = [try pki.chain(), try pki.chain(intermediateMarker: nil, intermediateIsCA: false, leafMarker: nil)]
        let certificates = chains.flatMap(\.certificates) + [try #require(Certificate(der: AppleSignedData.appleRootCAG3DER))]
        for certificate in certificates {
            let extensions = try CertificateExtensions(certificate: certificate.der)
            #expect(extensions.isCA == certificate.isCA, "\(certificate.subject)")
            for oid in [AppleSignedData.leafMarkerOID, AppleSignedData.intermediateMarkerOID, "2.5.29.19", "2.5.29.15"] {
                #expect(extensions.contains(oid: oid) == certificate.hasExtension(oid: oid), "\(certificate.subject) \(oid)")
            }
        }
    }

    @Test("every truncation and every single-byte change of a certificate reads or throws, never crashes")
    func hostileBytes() throws {
        let der = try GeneratedPKI().chain().certificates[0].der
        for length in 0..<der.count {
            #expect(throws: DERError.self) { try CertificateExtensions(certificate: der.prefix(length)) }
        }
        for index in der.indices {
            var changed = der
            changed[index] ^= 0xFF
            _ = try? CertificateExtensions(certificate: changed)
        }
        #expect(throws: DERError.self) { try CertificateExtensions(certificate: der + [0x00]) }
    }

    @Test("non-DER lengths are refused: indefinite, leading zero, not minimal, longer than the input")
    func nonDERLengths() {
        for bytes: [UInt8] in [[0x30, 0x80, 0x00, 0x00], [0x30, 0x82, 0x00, 0x01, 0x00], [0x30, 0x81, 0x01, 0x00],
                               [0x30, 0x05, 0x00], [0x30, 0x85, 0x01, 0x00, 0x00, 0x00, 0x00], [0x1F, 0x01, 0x00]] {
            var reader = DERReader(ArraySlice(bytes))
            #expect(throws: DERError.self) { try reader.read() }
        }
    }

    @Test("dotted OIDs encode as DER does")
    func objectIdentifiers() {
        #expect(DERReader.objectIdentifier("2.5.29.19") == [0x55, 0x1D, 0x13])
        #expect(DERReader.objectIdentifier("1.2.840.113635.100.6.11.1")
            == [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x63, 0x64, 0x06, 0x0B, 0x01])
        #expect(DERReader.objectIdentifier("1") == nil)
        #expect(DERReader.objectIdentifier("3.1") == nil)
        #expect(DERReader.objectIdentifier("1.2.x") == nil)
    }
}
