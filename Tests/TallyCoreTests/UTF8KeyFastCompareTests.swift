import Testing
import TallyCore

/// `hasSameBytes` (and `UTF8Key`'s equality) compare UTF-8 bytes, on every kind of string storage.
@Suite struct UTF8KeyFastCompareTests {
    @Test func bytesDecideNotCanonicalEquivalence() {
        let long = String(repeating: "x", count: 2_000)
        #expect((long + "caf\u{E9}").hasSameBytes(as: long + "caf\u{E9}"))
        #expect(!(long + "caf\u{E9}").hasSameBytes(as: long + "cafe\u{301}"), "NFC and NFD differ in bytes")
        #expect(!"KATE".hasSameBytes(as: "\u{212A}ATE"))
        #expect("".hasSameBytes(as: ""))
        #expect(!"a".hasSameBytes(as: ""))
        #expect(!(long + "a").hasSameBytes(as: long + "b"), "a difference in the last byte")
        #expect(UTF8Key(long + "a") != UTF8Key(long + "b"))
        #expect(UTF8Key("caf\u{E9}") != UTF8Key("cafe\u{301}"))
    }

    @Test func bridgedAndSubstringStoragesCompareByBytesToo() {
        let whole = "prefix-caf\u{E9}-suffix"
        let sliced = String(whole.dropFirst(7).dropLast(7))  // a new native string
        #expect(sliced.hasSameBytes(as: "caf\u{E9}"))
        let utf16 = String(decoding: Array("caf\u{E9}".utf16), as: UTF16.self)
        #expect(utf16.hasSameBytes(as: "caf\u{E9}"))
        #expect(!utf16.hasSameBytes(as: "cafe\u{301}"))
    }
}
