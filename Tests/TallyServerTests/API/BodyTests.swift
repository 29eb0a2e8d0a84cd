import Foundation
import Testing
@testable import TallyServer

@Suite("Request bodies")
struct BodyTests {
    let path = "/v1/customers/u/currencies/coins/spend"

    @Test("not JSON, or not UTF-8, is 400 malformed_json", arguments: StoreKind.tested)
    func malformed(_ kind: StoreKind) throws {
        let fixture = try ServerFixture.make(kind)
        for body in ["", "{", #"{"amount":1,}"#, #"{"id":"a" "amount":1}"#, "{'id':1}", #"{"a":01}"#, #"{"a":"\x"}"#,
                     #"{"a":1}{"#, #"{"a":"\ud800"}"#, #"{"a":1,"a":2}"#] {
            let reply = fixture.send("POST", path, body: body)
            #expect(reply.status == 400, "\(body)")
            #expect(reply.errorCode == "malformed_json", "\(body)")
        }
        var request = fixture.api.handle(.init(method: "POST", path: path,
                                               headers: ["authorization": "Bearer \(ServerFixture.secretKey)"],
                                               body: [UInt8(ascii: "{"), 0xFF, UInt8(ascii: "}")]))
        #expect(Reply(request).errorCode == "malformed_json")
        request = fixture.api.handle(.init(method: "POST", path: path,
                                           headers: ["authorization": "Bearer \(ServerFixture.secretKey)"],
                                           body: Array(#"{"id":"\#u{1}"}"#.utf8)))
        #expect(Reply(request).errorCode == "malformed_json")
    }

    @Test("nesting beyond the limit is json_too_deep, decided before decoding (even for unclosed text)")
    func tooDeep() throws {
        let fixture = try ServerFixture(limits: ServerLimits(requestsPerSecond: 100, burst: 100, maxJSONDepth: 4))
        let ok = fixture.send("POST", path, body: #"{"id":"s","amount":1,"x":[[{"y":1}]]}"#)
        #expect(ok.errorCode != "json_too_deep")
        let deep = fixture.send("POST", path, body: #"{"id":"s","amount":1,"x":[[[{"y":1}]]]}"#)
        #expect(deep.status == 400)
        #expect(deep.errorCode == "json_too_deep")
        let unclosed = fixture.send("POST", path, body: String(repeating: "[", count: 200_000))
        #expect(unclosed.errorCode == "json_too_deep")
        let inString = fixture.send("POST", path, body: #"{"id":"[[[[[[[[{{{{","amount":1}"#)
        #expect(inString.errorCode != "json_too_deep")
    }

    @Test("a body over maxBodyBytes is 413 body_too_large")
    func tooLarge() throws {
        let fixture = try ServerFixture(limits: ServerLimits(requestsPerSecond: 100, burst: 100, maxBodyBytes: 64))
        let reply = fixture.send("POST", path, body: #"{"id":"\#(String(repeating: "x", count: 64))","amount":1}"#)
        #expect(reply.status == 413)
        #expect(reply.errorCode == "body_too_large")
    }

    @Test("bodies decode through Foundation into exact decimals (0.1 + 0.2 is 0.3), escapes resolved")
    func exactNumbers() throws {
        let body = #"{"a":[0.1,0.2,-2e3,true,null],"b":"\u00e9\ud83d\ude00\n\/","c":12345678901234567.89}"#
        let tree = try StrictJSONReader.read(Array(body.utf8), maxDepth: 8, name: "the body")
        let decimal = { (text: String) throws -> Decimal in
            try #require(Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")))
        }
        #expect(tree == .object(["a": .array([.number(try decimal("0.1")), .number(try decimal("0.2")),
                                              .number(-2000), .bool(true), .null]),
                                 "b": .string("é😀\n/"), "c": .number(try decimal("12345678901234567.89"))]))
        guard case .array(let numbers)? = tree["a"], case .number(let tenth) = numbers[0],
              case .number(let fifth) = numbers[1] else {
            Issue.record("the array did not decode")
            return
        }
        #expect(tenth + fifth == (try decimal("0.3")))
    }

    @Test("what Foundation lets through but JSON or exactness forbids is refused",
          arguments: [(#"{"x":[1,2,],"id":"s","amount":1}"#, "malformed_json"),
                      (#"{"id":"s","amount":1,}"#, "malformed_json"),
                      (#"{"id":"s","\u0069d":"t","amount":1}"#, "malformed_json"),
                      (#"{"id":"s","amount":1,"x":1e-300}"#, "invalid_request"),
                      (#"{"id":"s","amount":0.1000000000000000000000000000000000000000000000001}"#, "invalid_amount")])
    func strictness(body: String, code: String) throws {
        let reply = try ServerFixture().send("POST", path, body: body)
        #expect(reply.status == 400)
        #expect(reply.errorCode == code)
    }

    @Test("commas, brackets and repeated words inside strings are only text")
    func textInStrings() throws {
        let reply = try ServerFixture().send("POST", path, body: #"{"id":"a,]}\",}","x":{"id":"a,}"},"amount":1}"#)
        #expect(reply.errorCode == "insufficient_balance")
    }

    @Test("every error is JSON with code and message")
    func errorShape() throws {
        let reply = try ServerFixture().send("GET", "/nope")
        let error = try #require(reply.json["error"] as? [String: Any])
        #expect(error["code"] as? String == "not_found")
        #expect((error["message"] as? String)?.isEmpty == false)
        #expect(reply.header("Content-Type") == "application/json; charset=utf-8")
    }
}
