import Foundation
import TallyCore

/// Decoding of payloads that lack fields Tally's `StoreTransaction` or `RenewalInfo` requires but Apple's model
/// leaves optional: the other fields must still decode as the typed model reads them.
enum SparsePayload {
    /// The fields each kind's Tally model requires, with a stand-in of the right JSON type used only to check
    /// that the payload's other fields decode.
    static let standIns: [SignedPayloadKind: [String: JSONValue]] = [
        .transaction: [
            "transactionId": .string("0"), "productId": .string("0"), "purchaseDate": .integer(0),
            "type": .string(ProductType.consumable.rawValue),
        ],
        .renewalInfo: ["originalTransactionId": .string("0")],
    ]

    /// Whether a model decoding error is a required field of `kind` that is absent (or `null`).
    static func isMissingRequiredField(_ error: PayloadDecoding.ModelError, kind: SignedPayloadKind) -> Bool {
        guard let key = error.missingKey else { return false }
        return standIns[kind]?[key] != nil
    }

    /// The payload as an ``IncompletePayload`` when only required fields are missing; else the model error.
    static func incomplete(_ bytes: [UInt8], kind: SignedPayloadKind, decode: (Data) throws -> Void)
        -> Result<IncompletePayload, PayloadDecoding.ModelError>
    {
        guard let standIns = standIns[kind],
            case .object(var fields) = try? PayloadDecoding.shared.decode(JSONValue.self, from: Data(bytes))
        else {
            return .failure(PayloadDecoding.ModelError(message: "the payload is not a JSON object"))
        }
        let missing = standIns.keys.filter { key in fields[key] == nil || fields[key] == .null }.sorted()
        var completed = fields
        for key in missing { completed[key] = standIns[key] }
        do {
            try decode(try JSONEncoder().encode(completed))
        } catch {
            return .failure(PayloadDecoding.ModelError(error))
        }
        for key in missing { fields[key] = .null }
        return .success(IncompletePayload(kind: kind, fields: fields, missing: missing))
    }
}
