import Foundation
import TallyCore
import TallyHTTP

/// An error answer: `{"error":{"code":…,"message":…}}` with the status and codes of docs/server.md.
struct APIError: Error, Sendable {
    /// A field some errors add inside `error`.
    enum Detail: Sendable {
        /// `"reason"`: Apple's name for a verification failure.
        case reason(String)
        /// `"balance"`: what a refused spend could have had.
        case balance(Decimal)
    }

    var status: Int
    var code: String
    var message: String
    var detail: Detail?
    var headers: [HTTPResponse.Field] = []
    /// What the operator should read in the server's log (never sent to the client), such as a store's message.
    var logMessage: String?

    init(_ status: Int, _ code: String, _ message: String, detail: Detail? = nil,
         headers: [HTTPResponse.Field] = []) {
        self.status = status
        self.code = code
        self.message = message
        self.detail = detail
        self.headers = headers
    }

    /// The JSON response.
    var response: HTTPResponse {
        let body = JSONWriter.object { writer in
            writer.key("error")
            writer.object { writer in
                writer.field("code", code)
                writer.field("message", message)
                switch detail {
                case .reason(let reason)?: writer.field("reason", reason)
                case .balance(let balance)?: writer.field("balance", balance)
                case nil: break
                }
            }
        }
        return HTTPResponse(status: status, headers: [APIResponse.jsonContentType] + headers, body: body)
    }
}
