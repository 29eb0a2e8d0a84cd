import TallyCore

/// How a purchase ended, as StoreKit's `Product.PurchaseResult` plus the errors a purchase can throw.
public enum PurchaseResult: Sendable, Hashable {
    /// Bought; or already owned (the existing transaction, nothing charged).
    case purchased(StoreTransaction)
    /// Waiting for Ask to Buy approval or an interruption to be resolved.
    case pending(PendingPurchase)
    /// The customer cancelled.
    case cancelled
    /// Not allowed, unavailable, bad quantity, or an injected error.
    case failed(SandboxError)

    /// The transaction when purchased.
    public var transaction: StoreTransaction? {
        if case .purchased(let transaction) = self { transaction } else { nil }
    }

    /// The pending purchase when pending.
    public var pendingPurchase: PendingPurchase? {
        if case .pending(let pending) = self { pending } else { nil }
    }

    /// The error when failed.
    public var error: SandboxError? {
        if case .failed(let error) = self { error } else { nil }
    }

    /// `purchased`, `pending`, `cancelled` or `failed`.
    public var outcome: String {
        switch self {
        case .purchased: "purchased"
        case .pending: "pending"
        case .cancelled: "cancelled"
        case .failed: "failed"
        }
    }
}

/// JSON form: `{"outcome": "purchased", "transaction": {...}}`, `{"outcome": "pending", "pending": {...}}`,
/// `{"outcome": "cancelled"}`, `{"outcome": "failed", "error": {"code": ..., "message": ...}}`.
extension PurchaseResult: Codable {
    private enum CodingKeys: String, CodingKey { case outcome, transaction, pending, error }

    /// Decodes the JSON form.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let outcome = try container.decode(String.self, forKey: .outcome)
        switch outcome {
        case "purchased": self = .purchased(try container.decode(StoreTransaction.self, forKey: .transaction))
        case "pending": self = .pending(try container.decode(PendingPurchase.self, forKey: .pending))
        case "cancelled": self = .cancelled
        case "failed": self = .failed(try container.decode(SandboxError.self, forKey: .error))
        default:
            throw DecodingError.dataCorruptedError(forKey: .outcome, in: container,
                                                   debugDescription: "unknown purchase outcome '\(outcome)'")
        }
    }

    /// Encodes the JSON form.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(outcome, forKey: .outcome)
        switch self {
        case .purchased(let transaction): try container.encode(transaction, forKey: .transaction)
        case .pending(let pending): try container.encode(pending, forKey: .pending)
        case .cancelled: break
        case .failed(let error): try container.encode(error, forKey: .error)
        }
    }
}
