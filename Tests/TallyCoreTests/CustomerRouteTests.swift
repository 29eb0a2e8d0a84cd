import Foundation
import TallyCore
import Testing

/// The customer route's URL, the one place the engine and the tools build it.
@Suite("The customer route's URL")
struct CustomerRouteTests {
    @Test func eachIdIsOneEncodedPathSegmentUnderTheServer() throws {
        let server = try #require(URL(string: "https://api.example.com/base//"))
        let url = try #require(CustomerRoute.url(server: server, appUserId: "a/b c?#%;é",
                                                 path: ["currencies", "co/ins", "spend"]))
        #expect(url.absoluteString
            == "https://api.example.com/base/v1/customers/a%2Fb%20c%3F%23%25%3B%C3%A9/currencies/co%2Fins/spend")
        #expect(CustomerRoute.url(server: server, appUserId: "u-1")?.absoluteString
            == "https://api.example.com/base/v1/customers/u-1")
    }
}
