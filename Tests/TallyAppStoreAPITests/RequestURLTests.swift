import Foundation
import Testing
@testable import TallyAppStoreAPI

/// The request URL carries each id encoded once: Apple's API (and the sandbox) decode the path once, so an id
/// encoded twice would arrive with `%` signs in it.
@Suite struct RequestURLTests {
    @Test("an id with reserved characters is percent-encoded once in the request path")
    func encodedOnce() throws {
        let base = try #require(URL(string: "http://127.0.0.1:8090"))
        let id = AppStoreAPIClient.pathSegment("12/34 ?%")
        #expect(id == "12%2F34%20%3F%25")
        let url = try #require(AppStoreAPIClient.url(base: base, path: "/inApps/v1/transactions/\(id)", query: []))
        #expect(url.absoluteString == "http://127.0.0.1:8090/inApps/v1/transactions/12%2F34%20%3F%25")
    }

    @Test("a base URL with a path keeps it, with or without its trailing slash, and the query is appended")
    func basePathAndQuery() throws {
        for text in ["https://proxy.example/apple", "https://proxy.example/apple/"] {
            let base = try #require(URL(string: text))
            let url = try #require(AppStoreAPIClient.url(base: base, path: "/inApps/v2/history/7",
                                                         query: [("revision", "a b"), ("productId", "x")]))
            #expect(url.absoluteString == "https://proxy.example/apple/inApps/v2/history/7?revision=a%20b&productId=x")
        }
    }
}
