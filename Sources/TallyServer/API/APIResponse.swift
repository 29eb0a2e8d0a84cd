import TallyHTTP

/// Successful answers.
enum APIResponse {
    static let jsonContentType = HTTPResponse.Field("Content-Type", "application/json; charset=utf-8")

    /// 200 with a JSON body.
    static func json(_ body: [UInt8]) -> HTTPResponse {
        HTTPResponse(status: 200, headers: [jsonContentType], body: body)
    }
}
