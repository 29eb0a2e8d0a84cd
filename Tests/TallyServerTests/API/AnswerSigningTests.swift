import Foundation
import TallyCore
import TallyCrypto
import Testing
@testable import TallyServer

/// `signing.privateKeyFile`: the server signs each customer answer (`Tally-Signature`) for the request's nonce.
@Suite("Signed customer answers")
struct AnswerSigningTests {
    static let nonce = "n0nce-of-the-request_1"

    /// Whether `reply`'s signature verifies with `key` over its body, and the signature.
    static func verified(_ reply: Reply, key: PrivateKey) throws -> (Bool, AnswerSignature) {
        let signature = try AnswerSignature(header: try #require(reply.header(AnswerSignature.headerName)))
        let message = signature.message(body: reply.response.body)
        let publicKey = try #require(key.publicKey)
        let valid = message.withUnsafeBytes {
            ECDSA.verifyES256(message: $0, rawSignature: signature.signature, key: publicKey)
        }
        return (valid, signature)
    }

    @Test func everyCustomerAnswerIsSignedForItsRequestsNonceAndNothingElseIs() throws {
        let key = try PrivateKey.newP256()
        let fixture = try ServerFixture(signing: SigningSettings(privateKey: key))
        let nonce = [AnswerSignature.nonceHeaderName: Self.nonce]
        let posted = try fixture.post(Purchases.coins("t-1", at: ServerFixture.start), for: "alice")
        #expect(posted.status == 200)
        #expect(posted.header(AnswerSignature.headerName) != nil)
        let read = fixture.send("GET", "/v1/customers/alice", key: ServerFixture.publicKey, headers: nonce)
        let (valid, signature) = try Self.verified(read, key: key)
        #expect(valid)
        #expect(signature.nonce == Self.nonce)
        #expect(signature.time == Int64(ServerFixture.start.timeIntervalSince1970 * 1000))
        let spent = fixture.send("POST", "/v1/customers/alice/currencies/coins/spend",
                                 body: #"{"amount":1,"id":"o-1"}"#, headers: nonce)
        #expect(spent.status == 200)
        #expect(try Self.verified(spent, key: key).0)

        // A nonce the server does not sign (too long, or with a separator) is signed as empty.
        for bad in [String(repeating: "a", count: 65), "a;b", "a\nb", "é"] {
            let answer = fixture.send("GET", "/v1/customers/alice", key: ServerFixture.publicKey,
                                      headers: [AnswerSignature.nonceHeaderName: bad])
            let (ok, signed) = try Self.verified(answer, key: key)
            #expect(ok && signed.nonce == "", "nonce \(bad)")
        }
        // Errors, history and health are not signed.
        #expect(fixture.send("GET", "/v1/customers/alice", key: "tk_public_unknown").header(AnswerSignature.headerName) == nil)
        #expect(fixture.send("GET", "/v1/customers/alice/history").header(AnswerSignature.headerName) == nil)
        #expect(fixture.send("GET", "/healthz", key: nil).header(AnswerSignature.headerName) == nil)
    }

    @Test func withoutASigningKeyAnswersGoUnsigned() throws {
        let fixture = try ServerFixture()
        #expect(fixture.send("GET", "/v1/customers/alice", key: ServerFixture.publicKey)
            .header(AnswerSignature.headerName) == nil)
    }

    @Test func theSigningKeyFileMustBeAP256PrivateKey() throws {
        let temporary = try TemporaryDirectory()
        let directory = URL(fileURLWithPath: temporary.path)
        func problems(_ signing: String, file: String? = nil, contents: Data? = nil) throws -> [String] {
            if let file, let contents { try contents.write(to: directory.appendingPathComponent(file)) }
            let json = """
                {"storekit":"\(ServerFixture.marketDirectory.path)/Market.storekit",
                 "appConfiguration":"\(ServerFixture.marketDirectory.path)/tally.json","verification":{"appAppleId":42},
                 "keys":[{"name":"app","role":"public","sha256":"\(ConfigurationTests.hash)"}],"signing":\(signing)}
                """
            do {
                let loaded = try ServerConfiguration(jsonData: Data(json.utf8), fileName: "tally-server.json",
                                                     directory: directory)
                #expect(loaded.signing != nil)
                return []
            } catch {
                return error.problems.map(\.description)
            }
        }
        let key = try PrivateKey.newP256()
        #expect(try problems(#"{"privateKeyFile":"signing.pem"}"#, file: "signing.pem",
                             contents: Data(try key.pem().utf8)) == [])
        #expect(try problems(#"{"privateKeyFile":"garbage.pem"}"#, file: "garbage.pem",
                             contents: Data("-----BEGIN PRIVATE KEY-----\nAAAA\n".utf8))
                .first?.hasPrefix("signing.privateKeyFile: ") == true)
        #expect(try problems(#"{"privateKeyFile":"missing.pem"}"#).first?.contains("cannot read") == true)
        #expect(try problems("{}") == ["signing.privateKeyFile: is required: the P-256 key made by `tally serve signing-key`"])
        #expect(try problems(#"{"privateKeyFile":"signing.pem","publicKey":"x"}"#).first?
            .hasPrefix("signing.publicKey: is not a known key") == true)
    }
}
