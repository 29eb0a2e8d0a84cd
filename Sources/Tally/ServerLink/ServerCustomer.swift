import Foundation
import TallyCore

/// Reading the server's answers: the `customer` object (TallyCore's ``CustomerDocument``, the same type the
/// server writes it with) inside its envelope, a post's outcome, an error's code and message.
enum ServerCustomer {
    /// The answer's envelope: `{"customer": …}` plus route-specific fields.
    private struct Envelope: Decodable {
        var customer: CustomerDocument
    }

    /// `{"customer":{"appUserId":…}}`.
    private struct CustomerIdEnvelope: Decodable {
        struct Customer: Decodable {
            var appUserId: String
        }
        var customer: Customer
    }

    /// The `customer.appUserId` of an answer; nil when it has none.
    static func appUserId(in data: Data) -> String? {
        (try? JSONDecoder().decode(CustomerIdEnvelope.self, from: data))?.customer.appUserId
    }

    /// A transaction post's `{"transaction":{"outcome":…}}`.
    private struct PostEnvelope: Decodable {
        struct Posted: Decodable {
            var outcome: String
        }
        var transaction: Posted
    }

    /// The `transaction.outcome` of a post's answer; nil when there is none or it is not one of docs/server.md.
    static func outcome(in data: Data) -> ServerOutcome? {
        (try? JSONDecoder().decode(PostEnvelope.self, from: data)).flatMap { ServerOutcome(rawValue: $0.transaction.outcome) }
    }

    /// `{"error":{"code","message"}}`.
    private struct ErrorEnvelope: Decodable {
        struct Body: Decodable {
            var code: String
            var message: String
        }
        var error: Body
    }

    /// The state in an answer's `customer` object, dated now (the server judged it at its own clock).
    static func state(fromResponse data: Data, now: Date = Date()) throws -> CustomerState {
        try JSONDecoder().decode(Envelope.self, from: data).customer.state(at: now)
    }

    /// The error code and message of an error answer; `unknown` and the body's start when it is not one.
    static func error(in data: Data) -> (code: String, message: String) {
        if let envelope = try? JSONDecoder().decode(ErrorEnvelope.self, from: data) {
            return (envelope.error.code, envelope.error.message)
        }
        return ("unknown", String(decoding: data.prefix(200), as: UTF8.self))
    }
}
