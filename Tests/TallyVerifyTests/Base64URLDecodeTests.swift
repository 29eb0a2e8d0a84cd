import Foundation
import TallyVerify
import Testing

/// `Base64URL.decode` (four characters at a time) gives Foundation's base64 decoding of the same text with the
/// url alphabet mapped back, for every length and tail, and refuses what is not base64url.
@Suite struct Base64URLDecodeTests {
    @Test func everyLengthDecodesAsFoundationDoes() throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for length in 0...200 {
            let bytes = (0..<length).map { _ -> UInt8 in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return UInt8(truncatingIfNeeded: state >> 33)
            }
            let standard = Data(bytes).base64EncodedString()
            let url = standard.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            let unpadded = String(url.prefix { $0 != "=" })
            #expect(Base64URL.decode(unpadded) == bytes, "length \(length)")
            #expect(Base64URL.decode(url) == bytes, "padded, length \(length)")
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
        }
    }

    @Test func textOutsideTheAlphabetOrOfAnImpossibleLengthIsRefused() {
        for text in ["A", "AAAAA", "AB+C", "AB/C", "ABC*", "AAAA AAAA", "AAAAAA!A", "AAAAAAA\u{0}", "é", "AAAAAAAAA=="] {
            #expect(Base64URL.decode(text) == nil, "\(text)")
        }
        #expect(Base64URL.decode("") == [])
    }
}
