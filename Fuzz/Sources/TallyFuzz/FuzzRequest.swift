import TallyHTTP

/// Decodes a fuzz input into the request libmicrohttpd would hand the API. Lines split at `\n`:
/// `METHOD TARGET` (target = path, optionally `?query`), then the `Authorization` value (`p` and `s`
/// stand for `Bearer` with the public and secret key; empty for none), then the raw body (all the rest),
/// or a transaction for the harness to sign (``FuzzSigning``).
enum FuzzRequest {
    static func decode(_ bytes: [UInt8]) -> HTTPRequest {
        let newline = UInt8(ascii: "\n")
        let lineEnd = bytes.firstIndex(of: newline) ?? bytes.count
        let requestLine = String(decoding: bytes[..<lineEnd], as: UTF8.self)
        let afterLine = min(bytes.count, lineEnd + 1)
        let authEnd = bytes[afterLine...].firstIndex(of: newline) ?? bytes.count
        let authorization = String(decoding: bytes[afterLine..<authEnd], as: UTF8.self)
        let rest = Array(bytes[min(bytes.count, authEnd + 1)...])
        let body = FuzzSigning.body(rest) ?? rest

        let method: String, target: Substring
        if let space = requestLine.firstIndex(of: " ") {
            method = String(requestLine[..<space])
            target = requestLine[requestLine.index(after: space)...]
        } else {
            method = "GET"
            target = Substring(requestLine)
        }
        let path: Substring, queryText: Substring?
        if let mark = target.firstIndex(of: "?") {
            path = target[..<mark]
            queryText = target[target.index(after: mark)...]
        } else {
            path = target
            queryText = nil
        }
        var headers: [String: String] = [:]
        switch authorization {
        case "": break
        case "p": headers["authorization"] = "Bearer \(FuzzServer.publicKey)"
        case "s": headers["authorization"] = "Bearer \(FuzzServer.secretKey)"
        default: headers["authorization"] = authorization
        }
        if !body.isEmpty { headers["content-type"] = "application/json" }
        return HTTPRequest(method: method, path: String(path), query: queryText.map(query) ?? [:], headers: headers,
                           body: body)
    }

    /// `a=1&b=%20` as TallyHTTP reads it: each name and value decoded, the last value of a name wins.
    static func query(_ text: Substring) -> [String: String] {
        var query: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = HTTPRequest.decodeQueryComponent(parts[0])
            query[name] = parts.count > 1 ? HTTPRequest.decodeQueryComponent(parts[1]) : ""
        }
        return query
    }
}
