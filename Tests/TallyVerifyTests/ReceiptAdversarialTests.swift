import Foundation
import Testing
@testable import TallyVerify

/// Hostile and broken inputs: each must end in a failure with a reason, never a crash.
@Suite("Receipt adversarial inputs")
struct ReceiptAdversarialTests {
    let verifier: ReceiptVerifier

    init() throws {
        verifier = try ReceiptVerifier()
    }

    /// Both entry points must fail with VERIFICATION_FAILURE and a detail.
    func expectRejected(_ base64: String, mentioning words: [String] = [], _ comment: Comment? = nil) {
        for result in [AppReceipt.parse(base64: base64), verifier.verify(base64: base64)] {
            guard let failure = result.receiptFailure else {
                Issue.record("accepted: \(comment ?? "")")
                continue
            }
            #expect(failure.reason == .verificationFailure, comment)
            #expect(!failure.detail.isEmpty)
            for word in words { #expect(failure.detail.contains(word), "\(failure.detail) lacks \(word)") }
        }
    }

    @Test("truncated base64 is rejected, whether or not the cut keeps valid base64")
    func truncated() throws {
        let text = try ReceiptVectors.realReceipt(ReceiptVectors.getpure).trimmingCharacters(in: .whitespacesAndNewlines)
        expectRejected(String(text.prefix(text.count / 2 + 1)), mentioning: ["base64"])
        expectRejected(String(text.prefix(text.count / 8 * 4)), mentioning: ["PKCS#7"])
        expectRejected(String(text.prefix(40)))
    }

    @Test("random bytes of many lengths are rejected")
    func randomBytes() {
        var generator = ReceiptSeededGenerator(seed: 0x7A11E)
        for _ in 0..<300 {
            let count = Int.random(in: 0...4096, using: &generator)
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            expectRejected(Data(bytes).base64EncodedString(), "\(count) random bytes")
        }
    }

    @Test("every flipped payload byte of a valid receipt makes verification fail")
    func flippedPayloadBytes() throws {
        let der = [UInt8](try #require(Data(base64Encoded: try ReceiptVectors.realReceipt(ReceiptVectors.getpure),
                                             options: .ignoreUnknownCharacters)))
        let payload = try ReceiptPKCS7(der: der).signedContent()
        let start = try #require(Data(der).range(of: Data(payload))?.lowerBound)
        for offset in stride(from: 0, to: payload.count, by: 7) {
            var tampered = der
            tampered[start + offset] ^= 0x5A
            let failure = verifier.verify(der: Data(tampered)).receiptFailure
            #expect(failure?.reason == .verificationFailure, "flip at payload offset \(offset)")
        }
    }

    @Test("flipping any byte of the container never crashes; failures carry a detail")
    func flippedContainerBytes() throws {
        let der = [UInt8](try #require(Data(base64Encoded: try ReceiptVectors.realReceipt(ReceiptVectors.omnichess2015Leaf),
                                             options: .ignoreUnknownCharacters)))
        var failures = 0
        for offset in stride(from: 0, to: der.count, by: 13) {
            var tampered = der
            tampered[offset] ^= 0xFF
            if let failure = verifier.verify(der: Data(tampered)).receiptFailure {
                failures += 1
                #expect(!failure.detail.isEmpty)
            }
        }
        #expect(failures > der.count / 13 / 2)
    }

    @Test("the forged-payload container used below parses, so the rejections below are about the payload")
    func forgedContainerWorks() throws {
        let receipt = try AppReceipt.parse(base64: ReceiptForge.container(ReceiptForge.minimalPayload())).get()
        #expect(receipt.bundleId == "com.example.forged")
        let storeKit = try ReceiptVerifier(storeKitTestCertificate: ReceiptVectors.storeKitTestCertificate())
        let failure = try #require(storeKit.verify(base64: try ReceiptForge.container(ReceiptForge.minimalPayload())).receiptFailure)
        #expect(failure.detail.contains("signature does not match the content"))
    }

    @Test("an in-app set nested 20 000 levels deep is rejected")
    func deeplyNestedInApp() throws {
        let nested = ReceiptForge.nested(tag: 0x31, depth: 20_000)
        let payload = ReceiptForge.minimalPayload(extra: [ReceiptForge.attribute(17, nested)])
        expectRejected(try ReceiptForge.container(payload), mentioning: ["in-app purchase record 1"])
    }

    @Test("a payload of 100 000 unterminated indefinite-length SETs is rejected")
    func deeplyNestedIndefinite() throws {
        let payload: [UInt8] = (0..<200_000).map { $0 % 2 == 0 ? 0x31 : 0x80 }
        expectRejected(try ReceiptForge.container(payload), mentioning: ["receipt payload"])
    }

    @Test("lengths pointing past the end are rejected", arguments: [
        [0x31, 0x84, 0x7F, 0xFF, 0xFF, 0xFF, 0x30, 0x03, 0x02, 0x01, 0x01],
        [0x31, 0x05, 0x30, 0x10, 0x02, 0x01, 0x01],
        [0x31, 0x82, 0xFF, 0xFF],
        [0x31, 0x89, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09],
    ] as [[UInt8]])
    func lengthsPastEnd(record: [UInt8]) throws {
        let inApp = ReceiptForge.minimalPayload(extra: [ReceiptForge.attribute(17, record)])
        expectRejected(try ReceiptForge.container(inApp), mentioning: ["in-app purchase record 1"])
        expectRejected(try ReceiptForge.container(record), mentioning: ["receipt payload"])
    }

    @Test("semantic breakage in the payload is rejected with the attribute named", arguments: [
        (ReceiptForge.payload([ReceiptForge.attribute(2, ReceiptForge.utf8("a"))]), "12"),
        (ReceiptForge.minimalPayload(extra: [ReceiptForge.attribute(2, ReceiptForge.utf8("b"))]), "twice"),
        (ReceiptForge.payload([ReceiptForge.attribute(2, ReceiptForge.utf8("a")),
                               ReceiptForge.attribute(12, ReceiptForge.ia5("2023-02-30T00:00:00Z"))]), "attribute 12"),
        (ReceiptForge.payload([ReceiptForge.attribute(2, [0x02, 0x01, 0x05]),
                               ReceiptForge.attribute(12, ReceiptForge.ia5("2023-01-01T00:00:00Z"))]), "INTEGER"),
        (ReceiptForge.minimalPayload(extra: [ReceiptForge.attribute(17, ReceiptForge.payload([
            ReceiptForge.attribute(1702, ReceiptForge.utf8("p")),
            ReceiptForge.attribute(1704, ReceiptForge.ia5("2023-01-01T00:00:00Z")),
            ReceiptForge.attribute(1701, [0x02, 0x01, 0x01]),
        ]))]), "1703"),
        (ReceiptForge.payload([[0x30, 0x06, 0x02, 0x01, 0x02, 0x02, 0x01, 0x01]]), "OCTET STRING"),
    ] as [([UInt8], String)])
    func semanticBreakage(payload: [UInt8], word: String) throws {
        expectRejected(try ReceiptForge.container(payload), mentioning: [word])
    }

    @Test("10 MB of garbage is rejected: random base64, non-base64 text, zero bytes")
    func tenMegabytes() {
        var generator = ReceiptSeededGenerator(seed: 10)
        var random = Data(capacity: 10_000_000)
        for _ in 0..<1_250_000 { withUnsafeBytes(of: generator.next()) { random.append(contentsOf: $0) } }
        expectRejected(random.base64EncodedString(), "random")
        expectRejected(String(repeating: "garbage!", count: 1_250_000), mentioning: ["base64"])
        expectRejected(Data(count: 10_000_000).base64EncodedString(), mentioning: ["PKCS#7"])
    }
}

/// SplitMix64, so random inputs are the same on every run.
struct ReceiptSeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Builds DER payloads and puts them into the Xcode receipt's container, whose BER indefinite lengths
/// let any payload replace the original one (the signature then no longer matches).
enum ReceiptForge {
    static func length(_ count: Int) -> [UInt8] {
        if count < 0x80 { return [UInt8(count)] }
        var bytes: [UInt8] = []
        var rest = count
        while rest > 0 { bytes.insert(UInt8(rest & 0xFF), at: 0); rest >>= 8 }
        return [0x80 | UInt8(bytes.count)] + bytes
    }

    static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] { [tag] + length(content.count) + content }

    static func integer(_ value: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var rest = value
        repeat { bytes.insert(UInt8(rest & 0xFF), at: 0); rest >>= 8 } while rest > 0
        if bytes[0] & 0x80 != 0 { bytes.insert(0, at: 0) }
        return tlv(0x02, bytes)
    }

    static func utf8(_ text: String) -> [UInt8] { tlv(0x0C, Array(text.utf8)) }
    static func ia5(_ text: String) -> [UInt8] { tlv(0x16, Array(text.utf8)) }
    static func attribute(_ type: Int, _ value: [UInt8]) -> [UInt8] {
        tlv(0x30, integer(type) + integer(1) + tlv(0x04, value))
    }
    static func payload(_ attributes: [[UInt8]]) -> [UInt8] { tlv(0x31, attributes.flatMap { $0 }) }

    static func minimalPayload(extra: [[UInt8]] = []) -> [UInt8] {
        payload([attribute(2, utf8("com.example.forged")), attribute(12, ia5("2023-10-19T01:45:40Z"))] + extra)
    }

    /// `depth` constructed values with tag `tag`, each holding the next (definite lengths).
    static func nested(tag: UInt8, depth: Int) -> [UInt8] {
        var lengths = [0]
        for _ in 0..<depth { lengths.append(lengths[lengths.count - 1] + 1 + length(lengths[lengths.count - 1]).count) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(lengths[depth])
        for level in stride(from: depth - 1, through: 0, by: -1) { bytes += [tag] + length(lengths[level]) }
        return bytes
    }

    /// The Xcode receipt with its payload chunk (offset 54: `04 82 01 76` + 374 bytes) replaced.
    static func container(_ payload: [UInt8]) throws -> String {
        let original = [UInt8](try #require(Data(base64Encoded: try ReceiptVectors.xcodeReceipt("xcode-app-receipt-with-transaction"))))
        try #require(Array(original[54..<58]) == [0x04, 0x82, 0x01, 0x76])
        let forged = Array(original[..<54]) + tlv(0x04, payload) + Array(original[(58 + 374)...])
        return Data(forged).base64EncodedString()
    }
}

/// A receipt container with many embedded certificates: what used to cost 202 ms of CPU in `d2i_PKCS7` and the
/// chain search for 1,300 of them.
@Suite("Receipt containers too large to decode")
struct ReceiptEnvelopeTests {
    /// `ContentInfo { signedData, [0] SignedData { 1, {sha256}, {data, [0] payload}, [0] certificates, {} } }`,
    /// definite lengths, with `count` copies of one generated certificate.
    static func container(certificates count: Int, certificate: [UInt8]) -> [UInt8] {
        let tlv = ReceiptForge.tlv
        let signedDataOID: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
        let dataOID: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01]
        let sha256: [UInt8] = tlv(0x30, [0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00])
        let content = tlv(0x30, dataOID + tlv(0xA0, tlv(0x04, ReceiptForge.minimalPayload())))
        let certificates = tlv(0xA0, Array((0..<count).map { _ in certificate }.joined()))
        let signed = tlv(0x30, ReceiptForge.integer(1) + tlv(0x31, sha256) + content + certificates + tlv(0x31, []))
        return tlv(0x30, signedDataOID + tlv(0xA0, signed))
    }

    static func certificate() throws -> [UInt8] {
        let key = try PrivateKey.newP256()
        let profile = CertificateProfile(commonName: "Flood", organization: "Attacker", basicConstraints: "CA:FALSE",
                                         keyUsage: "digitalSignature")
        return try Certificate.issue(profile, key: key, issuer: nil, notBefore: Date(timeIntervalSince1970: 0),
                                     notAfter: Date(timeIntervalSince1970: 4_000_000_000)).der
    }

    @Test("1,300 embedded certificates are refused before OpenSSL decodes them, naming the count")
    func manyCertificatesAreRefusedFast() throws {
        let der = Self.container(certificates: 1_300, certificate: try Self.certificate())
        let verifier = try ReceiptVerifier()
        let start = Date()
        for result in [AppReceipt.parse(der: Data(der)), verifier.verify(der: Data(der))] {
            let failure = try #require(result.receiptFailure, "the container was accepted")
            #expect(failure.reason == .verificationFailure)
            #expect(failure.detail.contains("more than 10 certificates"), "\(failure.detail)")
        }
        let seconds = Date().timeIntervalSince(start)
        #expect(seconds < 1, "refusing twice took \(seconds) s (202 ms each before the limit, release build)")
    }

    @Test("a container within the limits still decodes, so the limit is what refused the large one")
    func fewCertificatesDecode() throws {
        let der = Self.container(certificates: 3, certificate: try Self.certificate())
        let receipt = try AppReceipt.parse(der: Data(der)).get()
        #expect(receipt.bundleId == "com.example.forged")
        let unsigned = try #require(try ReceiptVerifier().verify(der: Data(der)).receiptFailure)
        #expect(!unsigned.detail.contains("certificates;"), "\(unsigned.detail)")
    }

    @Test("certificates past 64 KiB in all and containers past 4 MiB are refused")
    func byteLimits() throws {
        let big = Self.container(certificates: 1, certificate: ReceiptForge.tlv(0x30, [UInt8](repeating: 0, count: 70_000)))
        let failure = try #require(AppReceipt.parse(der: Data(big)).receiptFailure)
        #expect(failure.detail.contains("certificates take"), "\(failure.detail)")
        let huge = ReceiptForge.tlv(0x30, [UInt8](repeating: 0, count: 5 << 20))
        let tooLarge = try #require(AppReceipt.parse(der: Data(huge)).receiptFailure)
        #expect(tooLarge.detail.contains("at most 4194304"), "\(tooLarge.detail)")
    }
}
