import Foundation
import TallyHTTP

/// A response with its body parsed as JSON, for assertions.
struct Reply {
    let response: HTTPResponse
    let json: [String: Any]

    init(_ response: HTTPResponse) {
        self.response = response
        json = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
    }

    var status: Int { response.status }
    var text: String { String(decoding: response.body, as: UTF8.self) }

    func header(_ name: String) -> String? {
        response.headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// `error.code`.
    var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
    /// `error.reason`.
    var errorReason: String? { (json["error"] as? [String: Any])?["reason"] as? String }
    /// The `customer` object.
    var customer: [String: Any] { json["customer"] as? [String: Any] ?? [:] }
    /// Feature names of `customer.entitlements`.
    var features: [String] {
        (customer["entitlements"] as? [[String: Any]] ?? []).compactMap { $0["feature"] as? String }
    }
    /// `customer.balances[currency]` as text.
    func balance(_ currency: String) -> String? {
        (customer["balances"] as? [String: Any])?[currency].map { "\($0)" }
    }
}
