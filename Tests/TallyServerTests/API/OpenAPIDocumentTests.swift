import Foundation
import Testing
@testable import TallyServer

/// docs/openapi.yaml against the router and docs/server.md: every route is described with its method and the key
/// schemes that may call it, every described path is a route, and every error code of the *Errors* table is in it.
@Suite("The OpenAPI description")
struct OpenAPIDocumentTests {
    /// The bundled file (docs/openapi.yaml links to it).
    static let file = ServerFixture.packageRoot.appendingPathComponent("Sources/TallyServer/OpenAPI/openapi.yaml")
    /// Described before its route exists: `GET /v1/dashboard/offers` comes with another branch (see its comment).
    static let awaitingMerge: Set<String> = ["/v1/dashboard/offers"]

    /// One operation of the file: its path, method and the security schemes its `security` list names.
    struct Operation: Hashable {
        var path: String
        var method: String
        var schemes: Set<String>
        var noKey: Bool
    }

    /// The operations, read by indentation (paths at 2 spaces, methods at 4, `security` items at 8).
    static func operations() throws -> [Operation] {
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: "paths:"), let end = lines.firstIndex(of: "components:") else {
            throw OpenAPIError("no paths: or components: in \(file.path)")
        }
        var operations: [Operation] = []
        var path = "", inSecurity = false
        for line in lines[(start + 1)..<end] {
            if line.hasPrefix("  /"), line.hasSuffix(":") {
                path = String(line.dropFirst(2).dropLast())
            } else if ["    get:", "    post:", "    put:"].contains(line) {
                operations.append(Operation(path: path, method: line.trimmingCharacters(in: .whitespaces).dropLast().uppercased(),
                                            schemes: [], noKey: false))
                inSecurity = false
            } else if line == "      security: []" {
                operations[operations.count - 1].noKey = true
            } else if line == "      security:" {
                inSecurity = true
            } else if inSecurity, line.hasPrefix("        "), let name = line.split(separator: ":").first {
                operations[operations.count - 1].schemes.insert(name.trimmingCharacters(in: CharacterSet(charactersIn: " -")))
            } else if !line.hasPrefix("        ") {
                inSecurity = false
            }
        }
        return operations
    }

    @Test("every route is described with its method, and every described path is a route")
    func everyRouteIsDescribed() throws {
        let operations = try Self.operations()
        #expect(operations.count >= 29)
        for route in Route.allCases where route != .dashboardFile {
            let methods = route.allowedMethods.filter { $0 != "HEAD" }
            for method in methods {
                #expect(operations.contains { $0.path == route.template && $0.method == method },
                        "\(method) \(route.template) is not in openapi.yaml")
            }
        }
        for operation in operations where !Self.awaitingMerge.contains(operation.path) {
            let route = Route.allCases.first { $0.template == operation.path && $0.allowedMethods.contains(operation.method) }
            #expect(route != nil, "openapi.yaml describes \(operation.method) \(operation.path), which no route answers")
        }
    }

    @Test("each operation names the key schemes its route admits; routes without a key say security: []")
    func securityFollowsTheRoles() throws {
        let operations = try Self.operations()
        for route in Route.allCases where route != .dashboardFile {
            for method in route.allowedMethods where method != "HEAD" {
                guard let operation = operations.first(where: { $0.path == route.template && $0.method == method }) else {
                    continue  // reported by everyRouteIsDescribed
                }
                guard route.role != nil else {
                    #expect(operation.noKey && operation.schemes.isEmpty, "\(method) \(route.template) takes no key")
                    continue
                }
                var admitted: Set<String> = ["secretKey"]
                // GET …/attributes is a public route for its POST; its GET reads with the secret key only.
                let readsWithSecretOnly = route == .attributes && method == "GET"
                if !readsWithSecretOnly {
                    if route.admits(.public) { admitted.insert("publicKey") }
                    if route.admits(.dashboard) && method == "GET" { admitted.insert("dashboardKey") }
                }
                #expect(admitted.isSubset(of: operation.schemes),
                        "\(method) \(route.template): openapi.yaml names \(operation.schemes.sorted()), the route admits \(admitted.sorted())")
                if !readsWithSecretOnly, !route.admits(.dashboard) || method != "GET" {
                    #expect(!operation.schemes.contains("dashboardKey"), "\(method) \(route.template) refuses the dashboard key")
                }
                #expect(!operation.noKey, "\(method) \(route.template) needs a key")
            }
        }
    }

    @Test("every error code of docs/server.md's Errors table is in openapi.yaml")
    func everyDocumentedErrorIsDescribed() throws {
        let prose = try String(contentsOf: ServerFixture.packageRoot.appendingPathComponent("docs/server.md"), encoding: .utf8)
        let yaml = try String(contentsOf: Self.file, encoding: .utf8)
        guard let table = prose.components(separatedBy: "## Errors").dropFirst().first?.components(separatedBy: "\n## ").first
        else { throw OpenAPIError("docs/server.md has no Errors section") }
        var codes: [String] = []
        for row in table.split(separator: "\n") where row.hasPrefix("| ") {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 2, Int(cells[0]) != nil else { continue }
            codes += cells[1].split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " `")) }
        }
        #expect(codes.count >= 40, "read \(codes.count) codes from the Errors table")
        // Answered on any route (the description's introduction says so), so in no operation's schema.
        let anyRoute: Set<String> = ["not_found", "method_not_allowed", "unsupported_transfer_coding"]
        for code in codes {
            #expect(yaml.contains("`\(code)`"), "the error code \(code) is not described in openapi.yaml")
            let inSchema = ["const: \(code)\n", "[\(code),", "[\(code)]", " \(code),", " \(code)]"].contains { yaml.contains($0) }
            #expect(inSchema || anyRoute.contains(code), "no response schema of openapi.yaml allows the code \(code)")
        }
    }
}

/// A file of the test that does not read as expected.
struct OpenAPIError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

@Suite("GET /v1/openapi.yaml")
struct OpenAPIRouteTests {
    @Test("the route answers the bundled file with any key or none, as YAML; a POST is 405; the metrics count it")
    func theRouteAnswersTheFile() throws {
        let fixture = try ServerFixture()
        let expected = try Data(contentsOf: OpenAPIDocumentTests.file)
        for key in [nil, "tk_unknown", ServerFixture.publicKey] {
            let reply = fixture.send("GET", "/v1/openapi.yaml", key: key)
            #expect(reply.response.status == 200, "key \(key ?? "none")")
            #expect(reply.header("Content-Type") == "application/yaml")
            #expect(reply.header("Cache-Control") == "no-cache")
            #expect(Data(reply.response.body) == expected)
        }
        #expect(fixture.send("POST", "/v1/openapi.yaml", body: "{}").response.status == 405)
        #expect(fixture.api.metrics.prometheusText().contains(#"route="/v1/openapi.yaml",method="GET",status="200""#))
    }

    @Test("without its file the route is 503 unavailable, and its problem (logged at start) names the file")
    func withoutTheFileTheRouteIs503() {
        let missing = OpenAPIDocument(path: "/nonexistent/openapi.yaml")
        #expect(missing.response.status == 503)
        let object = try? JSONSerialization.jsonObject(with: Data(missing.response.body)) as? [String: Any]
        #expect((object?["error"] as? [String: Any])?["code"] as? String == "unavailable")
        #expect(missing.problem?.contains("openapi.yaml") == true)
        #expect(OpenAPIDocument(path: nil).body == nil)
        #expect(OpenAPIDocument(path: OpenAPIDocumentTests.file.path).problem == nil)
    }
}
