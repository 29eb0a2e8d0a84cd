import Foundation
import TallyHTTP

/// The API's OpenAPI 3.1 description (`OpenAPI/openapi.yaml`, bundled with TallyServer; `docs/openapi.yaml` is a
/// link to it), read once at start and served as `GET /v1/openapi.yaml` with no key.
struct OpenAPIDocument: Sendable {
    /// The name of the file in TallyServer's resource bundle.
    static let fileName = "openapi.yaml"
    /// The media type of YAML (RFC 9512).
    static let contentType = HTTPResponse.Field("Content-Type", "application/yaml")

    /// The file's bytes; nil when it was not found.
    let body: [UInt8]?

    /// Reads the file at `path`: by default the one in the resource bundle beside the executable; nil or unreadable:
    /// no description.
    init(path: String? = ResourceBundle.path(of: OpenAPIDocument.fileName)) {
        body = path.flatMap { FileManager.default.contents(atPath: $0) }.map(Array.init)
    }

    /// Why the description cannot be served, when its file was not found.
    var problem: String? {
        body == nil ? "openapi: \(Self.fileName) was not found in the resource bundle beside the executable; "
            + "GET /v1/openapi.yaml answers 503" : nil
    }

    /// 200 with the YAML (clients may keep it and must ask again), or 503 `unavailable` without the file.
    var response: HTTPResponse {
        guard let body else {
            return APIError(503, "unavailable", "this server was built without its OpenAPI description").response
        }
        return HTTPResponse(status: 200, headers: [Self.contentType, .init("Cache-Control", "no-cache"),
                                                   .init("X-Content-Type-Options", "nosniff")], body: body)
    }
}

/// TallyServer's resource bundle (`Tally_TallyServer.resources`), found beside the executable by hand: SwiftPM's
/// `Bundle.module` stops the process when the bundle is missing, and a server must keep answering.
enum ResourceBundle {
    /// The path of `relativePath` inside the bundle, beside the executable (Linux) or in it (macOS); nil when
    /// no candidate holds it.
    static func path(of relativePath: String) -> String? {
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
            .deletingLastPathComponent()
        let candidates = [
            executable.appendingPathComponent("Tally_TallyServer.resources"),
            executable.appendingPathComponent("Tally_TallyServer.bundle"),
            executable.appendingPathComponent("Tally_TallyServer.bundle/Contents/Resources"),
            Bundle.main.bundleURL.appendingPathComponent("Tally_TallyServer.resources"),
        ]
        return candidates.map { $0.appendingPathComponent(relativePath).path }
            .first { FileManager.default.fileExists(atPath: $0) }
    }
}
