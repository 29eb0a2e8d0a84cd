import Foundation
import TallyHTTP

/// The dashboard's static files, read once at start into memory and served by exact name only (no path is
/// ever joined from a request), each with a strict Content-Security-Policy and no MIME sniffing.
struct DashboardFiles: Sendable {
    /// The headers every dashboard file carries: scripts and styles from this origin only, no inline script,
    /// no framing, JSON only to this origin; no sniffing; no referrer sent.
    static let securityHeaders: [HTTPResponse.Field] = [
        .init("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            + "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"),
        .init("X-Content-Type-Options", "nosniff"),
        .init("Referrer-Policy", "no-referrer"),
        .init("X-Frame-Options", "DENY"),
        .init("Cache-Control", "no-cache"),
    ]

    /// File name → (content type, bytes).
    let files: [String: (type: String, body: [UInt8])]
    /// Why the dashboard cannot be served, when its files were not found.
    let problem: String?

    /// Reads the files of `settings` (or of the resource bundle beside the executable) and Chart.js.
    init(_ settings: DashboardSettings) {
        var files: [String: (String, [UInt8])] = [:]
        let directory = settings.filesDirectory ?? Self.bundledDirectory()
        var problem: String?
        if let directory, let names = try? FileManager.default.contentsOfDirectory(atPath: directory) {
            for name in names {
                guard let type = Self.contentType(of: name),
                      let data = FileManager.default.contents(atPath: (directory as NSString).appendingPathComponent(name))
                else { continue }
                files[name] = (type, Array(data))
            }
        }
        if files["index.html"] == nil {
            problem = "the dashboard's files were not found (looked in \(directory ?? "the resource bundle beside the executable")); set dashboard.files"
        }
        if let data = FileManager.default.contents(atPath: settings.chartJSPath) {
            files["vendor/chart.js"] = ("text/javascript; charset=utf-8", Array(data))
        }
        self.files = files
        self.problem = problem
    }

    /// Whether Chart.js was read.
    var hasChartJS: Bool { files["vendor/chart.js"] != nil }

    /// The name ``Router`` gives `/dashboard` (no file can have it): answered with a redirect to `/dashboard/`, so the
    /// page's relative URLs resolve under it.
    static let redirectToPage = "/"

    /// The response for `/dashboard/<name>` (`""` is the page).
    func response(_ name: String) -> HTTPResponse {
        if name == Self.redirectToPage {
            return HTTPResponse(status: 308, headers: [.init("Location", "/dashboard/")] + Self.securityHeaders)
        }
        let key = name.isEmpty ? "index.html" : name
        guard let file = files[key] else {
            // Errors are the API's error JSON, as everywhere else (docs/server.md, *Errors*).
            var error = APIError.notFound
            error.message = "no such dashboard file"
            if let problem, key == "index.html" { error = APIError(503, "unavailable", problem) }
            var response = error.response
            response.headers += Self.securityHeaders
            return response
        }
        return HTTPResponse(status: 200, headers: [.init("Content-Type", file.type)] + Self.securityHeaders,
                            body: file.body)
    }

    private static func contentType(of name: String) -> String? {
        switch (name as NSString).pathExtension {
        case "html": "text/html; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        default: nil
        }
    }

    /// The `Web` folder of TallyServer's resource bundle, beside the executable (Linux) or in it (macOS).
    private static func bundledDirectory() -> String? {
        ResourceBundle.path(of: "Web/index.html").map { ($0 as NSString).deletingLastPathComponent }
    }
}
