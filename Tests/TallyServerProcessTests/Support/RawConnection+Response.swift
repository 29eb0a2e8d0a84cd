import Foundation

extension RawConnection {
    /// Reads one HTTP/1.1 response (Content-Length, chunked, or until close); nil when the server
    /// closed the connection before sending a status line.
    func readResponse() throws -> HTTPReply? {
        var buffer = takePending()
        let separator = Data("\r\n\r\n".utf8)
        while buffer.range(of: separator) == nil {
            let chunk = try receive()
            if chunk.isEmpty {
                if buffer.isEmpty { return nil }
                throw HarnessError("the connection closed inside a response head: \(String(decoding: buffer, as: UTF8.self))")
            }
            buffer.append(chunk)
        }
        guard let end = buffer.range(of: separator) else { return nil }
        let head = String(decoding: buffer[buffer.startIndex..<end.lowerBound], as: UTF8.self)
        var rest = Data(buffer[end.upperBound...])
        let lines = head.components(separatedBy: "\r\n")
        let statusWords = lines[0].split(separator: " ")
        guard statusWords.count >= 2, statusWords[0].hasPrefix("HTTP/"), let status = Int(statusWords[1]) else {
            throw HarnessError("not an HTTP status line: \(lines[0])")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let body: Data
        if let length = headers["content-length"].flatMap({ Int($0) }) {
            body = try readExactly(length, after: &rest)
        } else if headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
            body = try readChunked(after: &rest)
        } else {
            body = rest + (try readToEnd())
            rest = Data()
        }
        putBack(rest)
        return HTTPReply(status: status, headers: headers, body: body)
    }

    /// Sends one request with `Connection: keep-alive` and reads its response.
    func request(_ method: String, _ path: String, key: String? = nil, body: Data? = nil) throws -> HTTPReply {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n"
        if let key { head += "Authorization: Bearer \(key)\r\n" }
        if let body { head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n" }
        try send(Array((head + "\r\n").utf8) + Array(body ?? Data()))
        guard let reply = try readResponse() else { throw HarnessError("the server closed the connection without answering \(method) \(path)") }
        return reply
    }

    private func readExactly(_ count: Int, after rest: inout Data) throws -> Data {
        while rest.count < count {
            let chunk = try receive()
            if chunk.isEmpty { throw HarnessError("the connection closed after \(rest.count) of \(count) body bytes") }
            rest.append(chunk)
        }
        let body = Data(rest.prefix(count))
        rest = Data(rest.dropFirst(count))
        return body
    }

    private func readChunked(after rest: inout Data) throws -> Data {
        var body = Data()
        while true {
            let line = try readLine(after: &rest)
            guard let size = Int(line.split(separator: ";")[0].trimmingCharacters(in: .whitespaces), radix: 16) else {
                throw HarnessError("bad chunk size line: \(line)")
            }
            if size == 0 {
                while try !readLine(after: &rest).isEmpty {}
                return body
            }
            body += try readExactly(size, after: &rest)
            _ = try readLine(after: &rest)
        }
    }

    private func readLine(after rest: inout Data) throws -> String {
        let newline = Data("\r\n".utf8)
        while rest.range(of: newline) == nil {
            let chunk = try receive()
            if chunk.isEmpty { throw HarnessError("the connection closed inside a chunked body") }
            rest.append(chunk)
        }
        guard let range = rest.range(of: newline) else { return "" }
        let line = String(decoding: rest[rest.startIndex..<range.lowerBound], as: UTF8.self)
        rest = Data(rest[range.upperBound...])
        return line
    }
}
