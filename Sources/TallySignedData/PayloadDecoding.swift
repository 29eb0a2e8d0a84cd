import Foundation
import TallyCore

/// One JSON parse of a payload yields both the claims verification checks and the caller's model.
package struct PayloadEnvelope<Model: Decodable>: Decodable {
    package var claims: SignedClaims
    package var model: Result<Model, PayloadDecoding.ModelError>

    package init(claims: SignedClaims, model: Result<Model, PayloadDecoding.ModelError>) {
        self.claims = claims
        self.model = model
    }

    package init(from decoder: Decoder) throws {
        claims = try SignedClaims(from: decoder)
        do {
            model = .success(try Model(from: decoder))
        } catch {
            model = .failure(PayloadDecoding.ModelError(error))
        }
    }
}

/// JSON decoding of JWS segments.
package enum PayloadDecoding {
    /// Why a verified payload did not decode into the requested model.
    package struct ModelError: Error {
        package var message: String
        /// The top-level field that is absent or `null` when that is why decoding failed.
        package var missingKey: String?

        package init(message: String, missingKey: String? = nil) {
            self.message = message
            self.missingKey = missingKey
        }

        package init(_ error: Error) {
            message = PayloadDecoding.describe(error)
            switch error as? DecodingError {
            case .keyNotFound(let key, let context) where context.codingPath.isEmpty:
                missingKey = key.stringValue
            case .valueNotFound(_, let context) where context.codingPath.count == 1:
                missingKey = context.codingPath[0].stringValue
            default:
                missingKey = nil
            }
        }
    }

    /// One decoder for every call: JSONDecoder is `Sendable` (its options are locked) and its options are
    /// never changed here, so sharing it only saves building one per JWS.
    package static let shared = JSONDecoder()

    /// The shared decoder.
    package static func decoder() -> JSONDecoder { shared }

    /// Decodes `bytes` into claims plus `Model`; a failure means the payload is not a JSON object.
    package static func envelope<Model: Decodable>(_ bytes: [UInt8], as model: Model.Type)
        -> Result<PayloadEnvelope<Model>, VerificationFailure>
    {
        do {
            return .success(try decoder().decode(PayloadEnvelope<Model>.self, from: Data(bytes)))
        } catch {
            return .failure(VerificationFailure(
                .verificationFailure, "the JWS payload is not a JSON object: \(describe(error))"))
        }
    }

    /// A transaction payload decoded once (in one pass when it is flat, as Apple's are, else by `JSONDecoder`),
    /// its claims taken from the decoded transaction; nil when that does not give the same claims as
    /// ``envelope(_:as:)`` (then use it instead).
    package static func transactionEnvelope(_ bytes: [UInt8]) -> PayloadEnvelope<StoreTransaction>? {
        guard let transaction = try? StoreTransaction(payloadJSON: bytes),
            let claims = SignedClaims(transaction: transaction)
        else { return nil }
        return PayloadEnvelope(claims: claims, model: .success(transaction))
    }

    /// A notification payload decoded once, in one pass, when it is flat but for `data` (as Apple's notifications
    /// about a transaction are), its claims taken from the decoded notification; nil when the bytes must go to
    /// ``envelope(_:as:)``.
    package static func flatNotificationEnvelope(_ bytes: [UInt8]) -> PayloadEnvelope<ServerNotification>? {
        guard let notification = ServerNotification(flatPayload: bytes),
            let claims = SignedClaims(flatNotification: notification)
        else { return nil }
        return PayloadEnvelope(claims: claims, model: .success(notification))
    }

    /// The failure for a payload that passed every check but does not decode into the model of `kind`.
    package static func undecodable(_ error: ModelError, kind: SignedPayloadKind) -> VerificationFailure {
        VerificationFailure(
            .verificationFailure, "the signed \(kind.rawValue) verified but does not decode: \(error.message)")
    }

    /// A short readable account of a decoding error: what is wrong and where.
    package static func describe(_ error: Error) -> String {
        guard let error = error as? DecodingError else { return String(describing: error) }
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map(\.stringValue).joined(separator: ".")
            return keys.isEmpty ? "top level" : keys
        }
        switch error {
        case .keyNotFound(let key, let context):
            let parent = context.codingPath.map(\.stringValue).joined(separator: ".")
            return "missing \(parent.isEmpty ? "" : parent + ".")\(key.stringValue)"
        case .typeMismatch(let type, let context):
            return "\(path(context)) is not \(type): \(context.debugDescription)"
        case .valueNotFound(let type, let context):
            return "\(path(context)) is null, expected \(type)"
        case .dataCorrupted(let context):
            return "\(path(context)): \(context.debugDescription)"
        @unknown default:
            return String(describing: error)
        }
    }
}
