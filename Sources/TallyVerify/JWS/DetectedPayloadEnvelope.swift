import Foundation
import TallyCore

/// One JSON parse of a payload whose kind is read from its fields: the claims, the kind, and the model.
struct DetectedPayloadEnvelope: Decodable {
    var claims: SignedClaims
    /// nil when the fields fit no kind.
    var kind: SignedPayloadKind?
    var model: Result<SignedPayload, PayloadDecoding.ModelError>

    /// A flat transaction payload (as Apple's are) read in one pass, without `JSONDecoder`: the envelope
    /// ``init(from:)`` gives for the same bytes, or nil when the bytes must go to it (not flat, not a
    /// strict transaction, a `notificationType` key, claims that the lenient reading could read otherwise).
    static func flatTransaction(_ bytes: [UInt8]) -> DetectedPayloadEnvelope? {
        guard let transaction = StoreTransaction(flatPayload: bytes), transaction.unknownFields["notificationType"] == nil,
            let claims = SignedClaims(transaction: transaction)
        else { return nil }
        return DetectedPayloadEnvelope(claims: claims, kind: .transaction, model: .success(.transaction(transaction)))
    }

    /// A notification about a transaction, flat but for `data` (as Apple's are), read in one pass: the envelope
    /// ``init(from:)`` gives for the same bytes, or nil when the bytes must go to it (another shape, or no
    /// `notificationType` string, which alone makes the lenient reading detect a notification).
    static func flatNotification(_ bytes: [UInt8]) -> DetectedPayloadEnvelope? {
        guard let envelope = PayloadDecoding.flatNotificationEnvelope(bytes), envelope.claims.notificationType != nil,
            case .success(let notification) = envelope.model
        else { return nil }
        return DetectedPayloadEnvelope(claims: envelope.claims, kind: .notification,
                                       model: .success(.notification(notification)))
    }

    private init(claims: SignedClaims, kind: SignedPayloadKind?, model: Result<SignedPayload, PayloadDecoding.ModelError>) {
        self.claims = claims
        self.kind = kind
        self.model = model
    }

    init(from decoder: Decoder) throws {
        // The usual case, a transaction: one strict decode gives model and claims (as for `--kind transaction`).
        // Only taken when the lenient reading would detect a transaction too: no notificationType key, and a
        // transactionId that decoded as a string.
        let keys = try decoder.container(keyedBy: AnyCodingKey.self)
        if !keys.contains(AnyCodingKey("notificationType")), keys.contains(AnyCodingKey("transactionId")),
            let transaction = try? StoreTransaction(from: decoder), let claims = SignedClaims(transaction: transaction)
        {
            self.claims = claims
            kind = .transaction
            model = .success(.transaction(transaction))
            return
        }
        claims = try SignedClaims(from: decoder)
        kind = SignedPayloadKind.detect(claims)
        do {
            switch kind {
            case .transaction: model = .success(.transaction(try StoreTransaction(from: decoder)))
            case .renewalInfo: model = .success(.renewalInfo(try RenewalInfo(from: decoder)))
            case .notification: model = .success(.notification(try ServerNotification(from: decoder)))
            case .appTransaction: model = .success(.appTransaction(try StoreAppTransaction(from: decoder)))
            case nil: model = .failure(PayloadDecoding.ModelError(message: "no payload kind fits"))
            }
        } catch {
            model = .failure(PayloadDecoding.ModelError(error))
        }
    }
}
