import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TallyCore

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
        guard let target = CustomerRoute.url(server: url, appUserId: appUserId,
                                             path: ["currencies", currency, "spend"]) else {
            throw MarketBackendError("cannot form the spend URL from \(url), '\(appUserId)' and '\(currency)'")
        }
        // The amount as its exact decimal text: a JSON number, never through Double.
        let (data, status) = try await post(target,
                                            Data("{\"amount\":\(amount.description),\"id\":\(try Self.jsonString(id))}".utf8))
        let answer = try? JSONDecoder().decode(SpendAnswer.self, from: data)
        if status == 200 {
            guard let balance = answer?.customer?.balances[currency] else {
                throw MarketBackendError("the server's 200 answer to the spend names no \(currency) balance: "
                    + String(decoding: data.prefix(200), as: UTF8.self))
            }
            return .spent(balance: balance)
        }
        let error = answer?.error
        if status == 409, error?.code == "insufficient_balance" {
            guard let balance = error?.balance else {
                throw MarketBackendError("the server's 409 insufficient_balance names no balance: "
                    + String(decoding: data.prefix(200), as: UTF8.self))
            }
            return .refused(balance: balance)
        }
        throw MarketBackendError("the server answered the spend \(status) \(error?.code ?? "?"): "
            + "\(error?.message ?? String(decoding: data.prefix(200), as: UTF8.self))")
    }

    /// The parts of a spend's answer the demo reads; amounts decoded as `Decimal` straight from the JSON text.
    private struct SpendAnswer: Decodable {
        struct Customer: Decodable { var balances: [String: Decimal] }
        struct Failure: Decodable {
            var code: String
            var message: String?
            var balance: Decimal?
        }
        var customer: Customer?
        var error: Failure?
    }

    /// POSTs a JSON `body` to `target` with the secret key: the answer's body and status.
    func post(_ target: URL, _ body: Data) async throws -> (Data, Int) {
        var request = URLRequest(url: target)
        request.httpMethod = "POST"
        request.setValue("Bearer \(secretKey)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = body
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let data: Data, response: URLResponse
        do { (data, response) = try await session.data(for: request) } catch {
            throw MarketBackendError("the server at \(url) cannot be reached: \(error.localizedDescription)")
        }
        return (data, (response as? HTTPURLResponse)?.statusCode ?? 0)
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
