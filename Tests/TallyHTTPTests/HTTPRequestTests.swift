import Testing
@testable import TallyHTTP

@Suite struct HTTPRequestTests {
    @Test func headerLookupIgnoresCase() {
        let request = HTTPRequest(method: "GET", path: "/", headers: ["authorization": "Bearer k"])
        #expect(request.header("Authorization") == "Bearer k")
        #expect(request.header("X-Missing") == nil)
    }
}
