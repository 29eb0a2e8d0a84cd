import Foundation
import Testing

extension ServerProcessTests {
    /// `GET /v1/openapi.yaml`: the built server answers its bundled description, which is docs/openapi.yaml.
    @Suite struct OpenAPI {
        /// docs/openapi.yaml, the one copy (a link to the file TallyServer bundles).
        static let document = TestPaths.packageRoot.appendingPathComponent("docs/openapi.yaml")
        static let bundled = TestPaths.packageRoot.appendingPathComponent("Sources/TallyServer/OpenAPI/openapi.yaml")

        @Test func theServerAnswersItsDescriptionWithoutAKey() async throws {
            let fixture = try ServerFixture()
            let client = fixture.client
            let expected = try Data(contentsOf: Self.document)
            #expect(expected.starts(with: Data("openapi: 3.1.0\n".utf8)))
            for key in [nil, "tk_secret_unknown", fixture.keys.publicKey] {
                let reply = try await client.send("GET", "/v1/openapi.yaml", key: key)
                #expect(reply.status == 200, "key \(key ?? "none"): \(reply)")
                #expect(reply.header("Content-Type") == "application/yaml")
                #expect(reply.header("X-Content-Type-Options") == "nosniff")
                #expect(reply.body == expected, "key \(key ?? "none"): the body is not docs/openapi.yaml")
            }
            let head = try await client.send("HEAD", "/v1/openapi.yaml")
            #expect(head.status == 200 && head.body.isEmpty && head.header("Content-Type") == "application/yaml", "\(head)")
            let post = try await client.send("POST", "/v1/openapi.yaml", body: Data("{}".utf8))
            #expect(post.status == 405 && post.errorCode == "method_not_allowed", "\(post)")
            #expect(post.header("Allow") == "GET, HEAD")
            // The route is counted under its own label, like every other.
            let metrics = try await client.send("GET", "/metrics")
            #expect(metrics.text.contains(#"route="/v1/openapi.yaml",method="GET",status="200""#), "\(metrics.text.prefix(2000))")
        }

        @Test func docsOpenAPIIsALinkToTheBundledFile() throws {
            let attributes = try FileManager.default.attributesOfItem(atPath: Self.document.path)
            #expect(attributes[.type] as? FileAttributeType == .typeSymbolicLink,
                    "docs/openapi.yaml must stay a link (an editor's rename-and-write replaces it with a copy)")
            #expect(Self.document.resolvingSymlinksInPath().path == Self.bundled.resolvingSymlinksInPath().path)
        }
    }
}
