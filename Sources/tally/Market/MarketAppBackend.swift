import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The demo's stand-in for an app's own backend: what a real app's server does for a spend, with the
/// `tally serve` secret key it alone holds — `POST /v1/customers/{appUserId}/currencies/{currency}/spend`
/// `{"amount": n, "id": "<order id>"}` (docs/server.md). The market holds the key only in this demo
/// (`--backend-key`), and says so.
struct MarketAppBackend: Sendable {
    /// The server's base URL.
    let url: URL
    /// The server's secret key.
    let secretKey: String

    /// What the server answered a spend.
    enum Answer: Sendable {
        /// 200: recorded (or the same id again); the customer's balance after it.
        case spent(balance: Decimal)
        /// 409 `insufficient_balance`: the balance the server holds.
        case refused(balance: Decimal)
    }

    /// Spends `amount` of `currency` for `appUserId`, idempotent by `id`.
    /// - Throws: ``MarketBackendError`` for any other answer, or none.
    func spend(_ amount: Decimal, of currency: String, for appUserId: String, id: String) async throws -> Answer {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/;?#%")
        guard let user = appUserId.addingPercentEncoding(withAllowedCharacters: allowed),
              let money = currency.addingPercentEncoding(withAllowedCharacters: allowed) else {
            throw MarketBackendError("cannot put '\(appUserId)' or '\(currency)' in a URL")
        }
        var base = url.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        guard let target = URL(string: "\(base)/v1/customers/\(user)/currencies/\(money)/spend") else {
            throw MarketBackendError("cannot form the spend URL from \(url)")
        }
        var request = URLRequest(url: target)
        request.httpMethod = "POST"
        request.setValue("Bearer \(secretKey)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        // The amount as its exact decimal text: a JSON number, never through Double.
        request.httpBody = Data("{\"amount\":\(amount.description),\"id\":\(try Self.jsonString(id))}".utf8)
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let data: Data, response: URLResponse
        do { (data, response) = try await session.data(for: request) } catch {
            throw MarketBackendError("the server at \(url) cannot be reached: \(error.localizedDescription)")
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        let body = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        if status == 200 {
            let balances = (body["customer"] as? [String: Any])?["balances"] as? [String: Any] ?? [:]
            return .spent(balance: Self.decimal(balances[currency]))
        }
        let error = body["error"] as? [String: Any] ?? [:]
        if status == 409, error["code"] as? String == "insufficient_balance" {
            return .refused(balance: Self.decimal(error["balance"]))
        }
        throw MarketBackendError("the server answered the spend \(status) \(error["code"] as? String ?? "?"): "
            + "\(error["message"] as? String ?? String(decoding: data.prefix(200), as: UTF8.self))")
    }

    private static func decimal(_ value: Any?) -> Decimal {
        (value as? NSNumber).map { Decimal(string: $0.stringValue) ?? $0.decimalValue } ?? 0
    }

    private static func jsonString(_ text: String) throws -> String {
        String(decoding: try JSONEncoder().encode(text), as: UTF8.self)
    }
}

/// A spend the demo's app backend could not make.
struct MarketBackendError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
