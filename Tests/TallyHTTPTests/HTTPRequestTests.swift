import Testing
@testable import TallyHTTP

@Suite struct HTTPRequestTests {
    @Test func headerLookupIgnoresCase() {
        let request = HTTPRequest(method: "GET", path: "/", headers: ["authorization": "Bearer k"])
        #expect(request.header("Authorization") == "Bearer k")
        #expect(request.header("X-Missing") == nil)
    }
}

@Suite struct PercentDecodingTests {
    @Test func pathSegmentDecoding() {
        #expect(HTTPRequest.decodePathSegment("a%2Fb") == "a/b")
        #expect(HTTPRequest.decodePathSegment("%c3%a9") == "é")
        #expect(HTTPRequest.decodePathSegment("a+b") == "a+b")
        #expect(HTTPRequest.decodePathSegment("") == "")
    }

    @Test func invalidPathSegmentsAreNil() {
        #expect(HTTPRequest.decodePathSegment("%") == nil)
        #expect(HTTPRequest.decodePathSegment("%2") == nil)
        #expect(HTTPRequest.decodePathSegment("%G0") == nil)
        #expect(HTTPRequest.decodePathSegment("%FF") == nil)
        #expect(HTTPRequest.decodePathSegment("%C3") == nil)
        #expect(HTTPRequest.decodePathSegment("%+F") == nil)
        #expect(HTTPRequest.decodePathSegment("%-1") == nil)
    }

    @Test func queryComponentDecoding() {
        #expect(HTTPRequest.decodeQueryComponent("a+b%20c") == "a b c")
        #expect(HTTPRequest.decodeQueryComponent("100%") == "100%")
        #expect(HTTPRequest.decodeQueryComponent("%FFx") == "%FFx")
        #expect(HTTPRequest.decodeQueryComponent("%E2%82%AC") == "€")
        // A `+` byte is a space even when a combining mark follows it (one Character with the mark).
        #expect(Array(HTTPRequest.decodeQueryComponent("a+\u{349}b").utf8) == Array("a \u{349}b".utf8))
    }
}

@Suite struct BearerTokenTests {
    @Test func tokenIsReadWhateverTheSchemeCaseAndSpacing() {
        #expect(HTTPRequest.bearerToken(fromAuthorization: "Bearer tk_secret_abc") == "tk_secret_abc")
        #expect(HTTPRequest.bearerToken(fromAuthorization: "  bEaReR \t tk_1  ") == "tk_1")
        #expect(HTTPRequest.bearerToken(fromAuthorization: "Bearer\ttk_2") == "tk_2")
        let request = HTTPRequest(method: "GET", path: "/", headers: ["authorization": "BEARER k"])
        #expect(request.bearerToken == "k")
    }

    @Test func otherSchemesAndEmptyTokensAreNil() {
        #expect(HTTPRequest(method: "GET", path: "/").bearerToken == nil)
        for value in ["", "Bearer", "Bearer ", "Bearer   \t", "Basic dXNlcjpwYXNz", "Bearertk", "Bearers tk",
                      "Bearer-tk", "tk_secret_abc", "earer tk"] {
            #expect(HTTPRequest.bearerToken(fromAuthorization: value) == nil, "\(value)")
        }
    }
}
