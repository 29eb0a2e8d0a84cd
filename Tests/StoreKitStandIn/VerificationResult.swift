import Foundation

/// Stands in for `StoreKit.VerificationResult`: StoreKit's verdict on a signed value, scripted by tests.
@frozen public enum VerificationResult<SignedType> {
    /// Passed StoreKit's checks.
    case verified(SignedType)
    /// Failed them; the payload is still present.
    case unverified(SignedType, VerificationResult<SignedType>.VerificationError)

    /// Stands in for `VerificationResult.VerificationError`.
    public enum VerificationError: Equatable, Hashable, Error, LocalizedError, Sendable {
        case invalidCertificateChain
        case invalidDeviceVerification
        case invalidEncoding
        case invalidSignature
        case missingRequiredProperties
        case revokedCertificate
    }

    /// The payload if verified; throws the verification error otherwise.
    public var payloadValue: SignedType {
        get throws {
            switch self {
            case .verified(let value): return value
            case .unverified(_, let error): throw error
            }
        }
    }

    /// The payload whatever the verdict.
    public var unsafePayloadValue: SignedType {
        switch self {
        case .verified(let value), .unverified(let value, _): value
        }
    }
}

extension VerificationResult: Equatable where SignedType: Equatable {}
extension VerificationResult: Hashable where SignedType: Hashable {}

extension VerificationResult: Sendable where SignedType: Sendable {}

extension VerificationResult: CustomDebugStringConvertible where SignedType: CustomDebugStringConvertible {
    /// A short description, for test failure messages.
    public var debugDescription: String {
        switch self {
        case .verified(let value): "verified(\(value))"
        case .unverified(let value, let error): "unverified(\(value), \(error))"
        }
    }
}

extension VerificationResult where SignedType == Transaction {
    /// The transaction's JWS (compact serialization), the same as the server's `JWSTransaction`.
    public var jwsRepresentation: String { unsafePayloadValue.jws }
    /// The decoded payload.
    public var payloadData: Data { unsafePayloadValue.payload }
}

extension VerificationResult where SignedType == Product.SubscriptionInfo.RenewalInfo {
    /// The renewal info's JWS (compact serialization), the same as the server's `JWSRenewalInfo`.
    public var jwsRepresentation: String { unsafePayloadValue.jws }
    /// The decoded payload.
    public var payloadData: Data { unsafePayloadValue.payload }
}
