import Foundation
import Testing
import TallyCore
@testable import TallyServer

/// The one-pass read of `{"signedTransaction":"<JWS>"}` must give exactly what the full reader gives, and
/// leave every other body (escapes, other members, trailing bytes) to the full reader.
@Suite struct CompactTokenMemberTests {
    static let jws = "eyJhbGciOiJFUzI1NiJ9.eyJ0cmFuc2FjdGlvbklkIjoiMSJ9.c2ln-_0"

    static func fullRead(_ body: String) -> String? {
        guard case .object(let members)? = try? StrictJSONReader.read(Array(body.utf8), maxDepth: 64, name: "the body"),
              case .string(let text)? = members["signedTransaction"], members.count == 1 else { return nil }
        return text
    }

    @Test(arguments: [
        #"{"signedTransaction":"\#(jws)"}"#,
        " \n{ \"signedTransaction\"\t:  \"\(jws)\" }\r\n",
        #"{"signedTransaction":"a"}"#,
    ])
    func theCommonShapeReadsAsTheFullReaderReadsIt(_ body: String) throws {
        let fast = try #require(CompactTokenMember.value(named: "signedTransaction", in: Array(body.utf8)))
        #expect(fast == Self.fullRead(body))
    }

    @Test(arguments: [
        #"{"signedTransaction":"a\u002eb"}"#,  // an escape: the full reader decodes it
        #"{"signedTransaction":"a.b","x":1}"#,  // another member
        #"{"x":1,"signedTransaction":"a.b"}"#,
        #"{"signedTransactionX":"a.b"}"#,  // a longer key
        #"{"signedTransactio":"a.b"}"#,  // a shorter key
        #"{"signedTransaction":""}"#,  // empty: the full path says so
        #"{"signedTransaction":"a.b"}x"#,  // trailing bytes
        #"{"signedTransaction":"a.b"} {}"#,
        #"{"signedTransaction":"a b"}"#,  // not a token character
        #"{"signedTransaction":"a.b"#,  // cut short
        #"{"signedTransaction":5}"#,
        #"{"signedTransaction":"é"}"#,
        #"["signedTransaction","a"]"#,
        "",
        "{",
    ])
    func everyOtherBodyIsLeftToTheFullReader(_ body: String) {
        #expect(CompactTokenMember.value(named: "signedTransaction", in: Array(body.utf8)) == nil)
    }
}
