import Foundation
import Testing
import TallyCore

/// The `Tally-Signature` header's one format (docs/server.md, *Signed answers*), read strictly.
@Suite("Tally-Signature header")
struct AnswerSignatureTests {
    static let signature = [UInt8](repeating: 7, count: 64)

    @Test func aHeaderReadsBackWhatWasWritten() throws {
        let written = AnswerSignature(time: 1_796_000_000_123, nonce: "abc-_XYZ09", signature: Self.signature)
        #expect(written.header.hasPrefix("v1;t=1796000000123;n=abc-_XYZ09;s="))
        #expect(try AnswerSignature(header: written.header) == written)
        let unsigned = AnswerSignature(time: 0, nonce: "", signature: Self.signature)
        #expect(try AnswerSignature(header: unsigned.header) == unsigned)
    }

    @Test func theSignedMessageIsTheTaggedLinesThenTheBody() {
        let message = AnswerSignature.message(time: 5, nonce: "n", body: Array("{}".utf8))
        #expect(String(decoding: message, as: UTF8.self) == "tally-answer-v1\n5\nn\n{}")
    }

    @Test func anythingElseIsAFormatError() {
        let s = AnswerSignature(time: 1, nonce: "n", signature: Self.signature).header.split(separator: ";").last!
        for header in ["", "v1", "v2;t=1;n=n;\(s)", "v1;t=1;n=n", "v1;t=1;n=n;\(s);x=1", "v1;t=-1;n=n;\(s)",
                       "v1;t=+1;n=n;\(s)", "v1;t=1e3;n=n;\(s)", "v1;t=99999999999999999999;n=n;\(s)",
                       "v1;x=1;n=n;\(s)", "v1;t=1;n=a b;\(s)", "v1;t=1;n=\(String(repeating: "a", count: 65));\(s)",
                       "v1;t=1;n=n;s=", "v1;t=1;n=n;s=AAAA", "v1;t=1;n=n;\(s)A", "v1;t=1;n=n;\(s)==",
                       "v1;t=1;n=n;s=\(String(repeating: "+", count: 86))", "v1;t=١;n=n;\(s)"] {
            #expect(throws: AnswerSignature.FormatError.self, "\(header)") { try AnswerSignature(header: header) }
        }
    }

    @Test func noncesAreFreshBase64URLOf128Bits() {
        let nonces = (0..<100).map { _ in AnswerSignature.newNonce() }
        #expect(Set(nonces).count == 100)
        #expect(nonces.allSatisfy { $0.count == 22 && AnswerSignature.isValidNonce($0) })
        #expect(!AnswerSignature.isValidNonce(""))
        #expect(!AnswerSignature.isValidNonce("a=b"))
    }
}
