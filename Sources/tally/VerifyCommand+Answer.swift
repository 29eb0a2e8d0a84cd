import Foundation
import TallyCore
import TallyVerify

extension VerifyCommand {
    /// The outcome for one input.
    enum Answer {
        case valid(SignedPayload)
        case validReceipt(AppReceipt)
        case invalid(VerificationFailure)
    }

    /// Verifies one input (already trimmed); throws when the options cannot verify this kind of input
    /// (a JWS in Production without `--app-apple-id`).
    static func answer(for text: String, options: Options) throws(UsageError) -> Answer {
        let kind = options.kind == "auto" && text.utf8.starts(with: "MII".utf8) ? "receipt" : options.kind
        if kind == "receipt" {
            switch options.receiptVerifier.verify(base64: text, at: options.receiptDate) {
            case .success(let receipt): return .validReceipt(receipt)
            case .failure(let failure): return .invalid(failure)
            }
        }
        let verifier = try options.verifier.get()
        let result: Result<SignedPayload, VerificationFailure> = switch kind {
        case "transaction": verifier.verify(text, kind: .transaction)
        case "renewal": verifier.verify(text, kind: .renewalInfo)
        case "notification": verifier.verify(text, kind: .notification)
        case "app-transaction": verifier.verify(text, kind: .appTransaction)
        default: verifier.verifyDetectingKind(text)
        }
        switch result {
        case .success(let payload): return .valid(payload)
        case .failure(let failure): return .invalid(failure)
        }
    }

    /// The answer as one JSON document.
    static func render(_ answer: Answer, encoder: JSONEncoder) -> Data {
        (try? encoder.encode(Document(answer)))
            ?? Data(#"{"valid":false,"reason":"VERIFICATION_FAILURE","detail":"the result could not be encoded"}"#.utf8)
    }

    /// `{"valid":true,"kind":...,"payload":{...}}` or `{"valid":false,"reason":...,"detail":...}`.
    struct Document: Encodable {
        var answer: Answer

        init(_ answer: Answer) { self.answer = answer }

        enum Key: String, CodingKey { case valid, kind, payload, nested, reason, detail }

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            switch answer {
            case .valid(let payload):
                try c.encode(true, forKey: .valid)
                try c.encode(payload.kind.rawValue, forKey: .kind)
                switch payload {
                case .transaction(let value): try c.encode(value, forKey: .payload)
                case .renewalInfo(let value): try c.encode(value, forKey: .payload)
                case .appTransaction(let value): try c.encode(value, forKey: .payload)
                case .incomplete(let value): try c.encode(value.fields, forKey: .payload)
                case .notification(let value):
                    try c.encode(value, forKey: .payload)
                    let nested = Nested(value)
                    if !nested.isEmpty { try c.encode(nested, forKey: .nested) }
                }
            case .validReceipt(let receipt):
                try c.encode(true, forKey: .valid)
                try c.encode("receipt", forKey: .kind)
                try c.encode(receipt, forKey: .payload)
            case .invalid(let failure):
                try c.encode(false, forKey: .valid)
                try c.encode(failure.reason.rawValue, forKey: .reason)
                try c.encode(failure.detail, forKey: .detail)
            }
        }
    }

    /// A notification's verified nested payloads (not Apple fields, so outside `payload`).
    struct Nested: Encodable {
        var transactionInfo: StoreTransaction?
        var renewalInfo: RenewalInfo?
        var appTransaction: StoreAppTransaction?

        init(_ notification: ServerNotification) {
            transactionInfo = notification.data?.transactionInfo
            renewalInfo = notification.data?.renewalInfo
            appTransaction = notification.appData?.appTransaction
        }

        var isEmpty: Bool { transactionInfo == nil && renewalInfo == nil && appTransaction == nil }
    }
}
