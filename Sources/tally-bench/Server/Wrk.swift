import Foundation

/// What one `wrk --latency` run reported.
struct WrkResult {
    /// `Requests/sec`.
    var requestsPerSecond: Double
    /// The 50% latency line, in seconds.
    var p50: Double
    /// The 99% latency line, in seconds.
    var p99: Double
    /// Total requests completed.
    var requests: Int
    /// `Non-2xx or 3xx responses` (0 when wrk printed no such line).
    var non2xx: Int
    /// Socket errors (connect, read, write, timeout) summed; 0 when wrk printed none.
    var socketErrors: Int
}

/// Runs wrk (https://github.com/wg/wrk) and reads its report.
struct Wrk {
    let executable: URL
    var threads = 2
    var connections = 64
    var seconds: Int

    /// Loads `url` for `seconds`, with extra `headers` and an optional Lua `script` (and its arguments).
    func run(_ url: String, headers: [String] = [], script: URL? = nil, scriptArguments: [String] = [])
        throws -> WrkResult
    {
        var arguments = ["-t\(threads)", "-c\(connections)", "-d\(seconds)s", "--latency"]
        for header in headers { arguments += ["-H", header] }
        if let script { arguments += ["-s", script.path] }
        arguments.append(url)
        if !scriptArguments.isEmpty { arguments += ["--"] + scriptArguments }
        let output = try BenchTools.output(of: executable, arguments)
        guard let result = Wrk.parse(output) else { throw BenchError("could not read wrk's report:\n\(output)") }
        return result
    }

    /// Reads `Requests/sec`, the 50% and 99% latency lines, the request count and the error lines.
    static func parse(_ output: String) -> WrkResult? {
        var rate: Double?, p50: Double?, p99: Double?, requests: Int?
        var non2xx = 0, socketErrors = 0
        for rawLine in output.split(separator: "\n") {
            let fields = rawLine.split(separator: " ", omittingEmptySubsequences: true)
            guard let first = fields.first else { continue }
            switch first {
            case "Requests/sec:": rate = fields.dropFirst().first.flatMap { Double($0) }
            case "50%": p50 = fields.dropFirst().first.flatMap(duration)
            case "99%": p99 = fields.dropFirst().first.flatMap(duration)
            case "Non-2xx": non2xx = fields.last.flatMap { Int($0) } ?? 0
            case "Socket":
                // "Socket errors: connect 0, read 0, write 0, timeout 0"
                socketErrors = fields.compactMap { Int($0.trimmingCharacters(in: CharacterSet(charactersIn: ","))) }
                    .reduce(0, +)
            default:
                if fields.count >= 3, fields[1] == "requests", fields[2] == "in" { requests = Int(first) }
            }
        }
        guard let rate, let p50, let p99, let requests else { return nil }
        return WrkResult(requestsPerSecond: rate, p50: p50, p99: p99, requests: requests, non2xx: non2xx,
                         socketErrors: socketErrors)
    }

    /// wrk's durations: `250.00us`, `1.25ms`, `2.00s`, `1.00m`.
    private static func duration(_ text: Substring) -> Double? {
        let units: [(String, Double)] = [("us", 1e-6), ("ms", 1e-3), ("s", 1), ("m", 60), ("h", 3600)]
        for (suffix, scale) in units where text.hasSuffix(suffix) {
            guard let value = Double(text.dropLast(suffix.count)) else { return nil }
            return value * scale
        }
        return nil
    }
}
