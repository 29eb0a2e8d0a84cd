import Foundation
import TallyCore

/// Verifies App Store signed data (JWS) the way Apple's app-store-server-library does, through OpenSSL,
/// and decodes it into Tally's model. Bad input is a `.failure`, never a crash or a throw.
///
/// Safe to share between threads: the only mutable state is the chain cache, which locks.
public final class SignedDataVerifier: Sendable {
    /// The configuration the verifier was made with.
    public let configuration: VerifierConfiguration
    let trustStore: TrustStore
    let cache = ChainCache()
    let revocation: RevocationChecker

    /// Creates a verifier; fails when the configuration cannot work (no roots, no app Apple id in Production).
    public init(configuration: VerifierConfiguration) throws(VerifierConfigurationError) {
        guard !configuration.rootCertificates.isEmpty || configuration.skipsSignature else {
            throw VerifierConfigurationError("at least one trusted root certificate is required")
        }
        if configuration.environment == .production, configuration.appAppleId == nil {
            throw VerifierConfigurationError("appAppleId is required for the Production environment")
        }
        guard let store = TrustStore(roots: configuration.rootCertificates) else {
            throw VerifierConfigurationError("OpenSSL could not create a certificate store")
        }
        self.configuration = configuration
        self.trustStore = store
        self.revocation = RevocationChecker(policy: configuration.revocationPolicy)
    }

    /// Creates a verifier trusting Apple Root CA - G3 (plus nothing else unless `rootCertificates` says so).
    public convenience init(
        rootCertificates: [Certificate] = [AppleRootCertificates.appleRootCAG3], bundleId: String?,
        appAppleId: Int64? = nil, environment: Environment, onlineChecks: Bool = false,
        effectiveDate: EffectiveDatePolicy? = nil
    ) throws(VerifierConfigurationError) {
        try self.init(configuration: VerifierConfiguration(
            rootCertificates: rootCertificates, bundleId: bundleId, appAppleId: appAppleId,
            environment: environment, onlineChecks: onlineChecks, effectiveDate: effectiveDate))
    }

    /// Verifies a `signedTransactionInfo` and decodes it.
    public func verifyTransaction(_ jws: String) -> Result<Transaction, VerificationFailure> {
        verifyPayload(jws, as: Transaction.self, kind: .transaction)
    }

    /// Verifies a `signedRenewalInfo` and decodes it.
    public func verifyRenewalInfo(_ jws: String) -> Result<RenewalInfo, VerificationFailure> {
        verifyPayload(jws, as: RenewalInfo.self, kind: .renewalInfo)
    }

    /// Verifies a notification's `signedPayload` and decodes it; nested signed data is verified and
    /// decoded into `data.transactionInfo`, `data.renewalInfo` and `appData.appTransaction` when
    /// ``VerifierConfiguration/verifiesNestedPayloads`` is on.
    public func verifyNotification(_ signedPayload: String) -> Result<ServerNotification, VerificationFailure> {
        verifyPayload(signedPayload, as: ServerNotification.self, kind: .notification).flatMap(verifyNested)
    }

    /// Verifies a `signedAppTransactionInfo` and decodes it.
    public func verifyAppTransaction(_ jws: String) -> Result<AppTransaction, VerificationFailure> {
        verifyPayload(jws, as: AppTransaction.self, kind: .appTransaction)
    }

    /// Verifies signed data of the given kind and decodes it.
    public func verify(_ jws: String, kind: SignedPayloadKind) -> Result<SignedPayload, VerificationFailure> {
        switch kind {
        case .transaction: verifyTransaction(jws).map(SignedPayload.transaction)
        case .renewalInfo: verifyRenewalInfo(jws).map(SignedPayload.renewalInfo)
        case .notification: verifyNotification(jws).map(SignedPayload.notification)
        case .appTransaction: verifyAppTransaction(jws).map(SignedPayload.appTransaction)
        }
    }

    /// Verifies signed data whose kind is read from its payload: `notificationType` → notification,
    /// `transactionId` → transaction, `receiptType` with an app id → app transaction,
    /// `autoRenewStatus` → renewal info.
    public func verifyDetectingKind(_ jws: String) -> Result<SignedPayload, VerificationFailure> {
        let claims = CompactJWS.split(jws)
            .flatMap { parts in decodePayload(parts.payload, as: JSONValue.self) }
            .map(\.claims)
        switch claims {
        case .failure(let failure):
            return .failure(failure)
        case .success(let claims):
            guard let kind = SignedPayloadKind.detect(claims) else {
                return .failure(VerificationFailure(
                    .verificationFailure,
                    "the payload is not a transaction, renewal info, notification or app transaction "
                        + "(none of notificationType, transactionId, receiptType, autoRenewStatus)"))
            }
            return verify(jws, kind: kind)
        }
    }

    /// Runs every check Apple's verifier makes for `kind` and decodes the payload into `Model`
    /// (use `JSONValue` to get the raw payload). A payload that passes every check but does not fit
    /// `Model` fails with `VERIFICATION_FAILURE` naming the missing or malformed field.
    public func verifyPayload<Model: Decodable>(_ jws: String, as model: Model.Type, kind: SignedPayloadKind)
        -> Result<Model, VerificationFailure>
    {
        guard jws.utf8.count <= configuration.maximumLength else {
            return .failure(VerificationFailure(
                .verificationFailure,
                "the JWS is \(jws.utf8.count) bytes; the limit is \(configuration.maximumLength) bytes"))
        }
        let parts: CompactJWS
        switch CompactJWS.split(jws) {
        case .success(let value): parts = value
        case .failure(let failure): return .failure(failure)
        }
        let envelope: PayloadEnvelope<Model>
        switch decodePayload(parts.payload, as: Model.self, kind: kind) {
        case .success(let value): envelope = value
        case .failure(let failure): return .failure(failure)
        }
        if !configuration.skipsSignature {
            if let failure = verifySignature(parts, claims: envelope.claims) { return .failure(failure) }
        } else if case .failure(let failure) = JWSHeader.decode(parts.header) {
            return .failure(failure)
        }
        if let failure = checkClaims(envelope.claims, kind: kind) { return .failure(failure) }
        return envelope.model.mapError { error in
            VerificationFailure(
                .verificationFailure,
                "the signed \(kind.rawValue) verified but does not decode: \(error.message)")
        }
    }

    func decodePayload<Model: Decodable>(_ segment: Substring, as model: Model.Type, kind: SignedPayloadKind? = nil)
        -> Result<PayloadEnvelope<Model>, VerificationFailure>
    {
        guard let bytes = Base64URL.decode(segment) else {
            return .failure(VerificationFailure(.verificationFailure, "the JWS payload is not base64url"))
        }
        // A transaction checked as a transaction: one strict decode gives both model and claims.
        if kind == .transaction, Model.self == Transaction.self,
            let envelope = PayloadDecoding.transactionEnvelope(bytes) as? PayloadEnvelope<Model>
        {
            return .success(envelope)
        }
        return PayloadDecoding.envelope(bytes, as: Model.self)
    }
}
