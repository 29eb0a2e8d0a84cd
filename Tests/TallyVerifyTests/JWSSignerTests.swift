import Foundation
import TallyCore
import Testing
@testable import TallyVerify

@Suite struct JWSSignerTests {
    @Test func signedTransactionVerifiesAndRoundTrips() throws {
        let signer = try JWSTestPKI.signer()
        let original = JWSTestPKI.transaction()
        let jws = try #require(signer.sign(original))
        let verified = try JWSTestPKI.verifier().verifyTransaction(jws).get()
        #expect(verified == original)
        #expect(verified.priceAmount == Decimal(string: "4.99"))
    }

    @Test func base64URLRoundTripsEveryLength() {
        for length in 0..<40 {
            let bytes = (0..<length).map { UInt8(($0 * 37 + 11) % 256) }
            let text = Base64URL.encode(bytes)
            #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
            #expect(Base64URL.decode(text) == bytes)
        }
        #expect(Base64URL.decode("a") == nil)
        #expect(Base64URL.decode("ab$c") == nil)
    }

    @Test func rawAndDERSignatureFormsConvertBothWays() throws {
        let key = try #require(PrivateKey.generateP256())
        let digest = ECDSA.sha256(Array("message".utf8))
        let der = try #require(key.signDigest(digest))
        let raw = try #require(ECDSA.rawSignature(fromDER: der))
        #expect(raw.count == 64)
        let back = try #require(ECDSA.derSignature(fromRaw: raw))
        let publicKey = try #require(key.publicKey)
        #expect(ECDSA.verify(digest: digest, derSignature: back, key: publicKey))
        #expect(!ECDSA.verify(digest: ECDSA.sha256(Array("other".utf8)), derSignature: back, key: publicKey))
        #expect(ECDSA.derSignature(fromRaw: raw.dropLast()) == nil)
    }

    @Test func rawECDSABaselineVerifies() throws {
        let sample = try #require(RawECDSA.sample())
        #expect(sample.verify())
        var broken = sample.digest
        broken[0] ^= 1
        #expect(!RawECDSA(key: sample.key, digest: broken, signature: sample.signature).verify())
    }

    @Test func builtInAppleRootIsG3() {
        let root = AppleRootCertificates.appleRootCAG3
        #expect(root.subject.contains("Apple Root CA - G3"))
        #expect(root.isCA)
        #expect(ECDSA.sha256(root.der).map { String(format: "%02x", $0) }.joined()
            == "63343abfb89a6a03ebb57e9b3f5fa7be7c4f5c756f3017b3a8c488c3653e9179")
    }
}
