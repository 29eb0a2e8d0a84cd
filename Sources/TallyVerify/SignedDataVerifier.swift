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
        appAppleId: Int64? = nil, environment: StoreEnvironment, onlineChecks: Bool = false,
        effectiveDate: EffectiveDatePolicy? = nil
    ) throws(VerifierConfigurationError) {
        try self.init(configuration: VerifierConfiguration(
            rootCertificates: rootCertificates, bundleId: bundleId, appAppleId: appAppleId,
            environment: environment, onlineChecks: onlineChecks, effectiveDate: effectiveDate))
    }

    /// Verifies a `signedTransactionInfo` and decodes it.
    public func verifyTransaction(_ jws: String) -> Result<StoreTransaction, VerificationFailure> {
        verifyPayload(jws, as: StoreTransaction.self, kind: .transaction)
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
    public func verifyAppTransaction(_ jws: String) -> Result<StoreAppTransaction, VerificationFailure> {
        verifyPayload(jws, as: StoreAppTransaction.self, kind: .appTransaction)
    }

    /// Verifies signed data of the given kind and decodes it. A transaction or renewal info that passes every
    /// check but lacks a field Tally's model requires (Apple's model has it optional) is
    /// ``SignedPayload/incomplete(_:)``, never a failure.
    public func verify(_ jws: String, kind: SignedPayloadKind) -> Result<SignedPayload, VerificationFailure> {
        switch kind {
        case .transaction: verified(jws, as: StoreTransaction.self, kind: kind, SignedPayload.transaction)
        case .renewalInfo: verified(jws, as: RenewalInfo.self, kind: kind, SignedPayload.renewalInfo)
        case .notification: verifyNotification(jws).map(SignedPayload.notification)
        case .appTransaction: verifyAppTransaction(jws).map(SignedPayload.appTransaction)
        }
    }

    /// Verifies signed data whose kind is read from its payload: `notificationType` → notification,
    /// `transactionId` → transaction, `receiptType` with an app id → app transaction,
    /// `autoRenewStatus` → renewal info. The payload is parsed once.
    public func verifyDetectingKind(_ jws: String) -> Result<SignedPayload, VerificationFailure> {
        let parts: CompactJWS
        switch checkedParts(jws) {
        case .success(let value): parts = value
        case .failure(let failure): return .failure(failure)
        }
        if let failure = cheapRefusal(parts) { return .failure(failure) }
        let bytes: [UInt8]
        switch parts.payloadBytes {
        case .success(let value): bytes = value
        case .failure(let failure): return .failure(failure)
        }
        let envelope: DetectedPayloadEnvelope
        do {
            envelope = try DetectedPayloadEnvelope.flatTransaction(bytes) ?? DetectedPayloadEnvelope.flatNotification(bytes)
                ?? PayloadDecoding.shared.decode(DetectedPayloadEnvelope.self, from: Data(bytes))
        } catch {
            return .failure(VerificationFailure(
                .verificationFailure, "the JWS payload is not a JSON object: \(PayloadDecoding.describe(error))"))
        }
        guard let kind = envelope.kind else {
            return .failure(VerificationFailure(
                .verificationFailure,
                "the payload is not a transaction, renewal info, notification or app transaction "
                    + "(none of notificationType, transactionId, receiptType, autoRenewStatus)"))
        }
        if let failure = checkSignatureAndClaims(parts, claims: envelope.claims, kind: kind) { return .failure(failure) }
        switch envelope.model {
        case .success(.notification(let notification)):
            return verifyNested(notification).map(SignedPayload.notification)
        case .success(let payload):
            return .success(payload)
        case .failure(let error):
            return decodeFailure(error, bytes: bytes, kind: kind)
        }
    }

    /// Runs every check Apple's verifier makes for `kind` and decodes the payload into `Model`
    /// (use `JSONValue` to get the raw payload). A payload that passes every check but does not fit
    /// `Model` fails with `VERIFICATION_FAILURE` naming the missing or malformed field.
    public func verifyPayload<Model: Decodable>(_ jws: String, as model: Model.Type, kind: SignedPayloadKind)
        -> Result<Model, VerificationFailure>
    {
        verifiedEnvelope(jws, as: model, kind: kind).flatMap { envelope, _ in
            envelope.model.mapError { error in PayloadDecoding.undecodable(error, kind: kind) }
        }
    }

    /// `verifyPayload` into a ``SignedPayload``; a payload lacking only fields `Model` requires is
    /// ``SignedPayload/incomplete(_:)``.
    func verified<Model: Decodable>(
        _ jws: String, as model: Model.Type, kind: SignedPayloadKind, _ wrap: (Model) -> SignedPayload
    ) -> Result<SignedPayload, VerificationFailure> {
        verifiedEnvelope(jws, as: model, kind: kind).flatMap { envelope, bytes in
            switch envelope.model {
            case .success(let model): .success(wrap(model))
            case .failure(let error): decodeFailure(error, bytes: bytes, kind: kind)
            }
        }
    }

    /// The split, length-checked JWS.
    func checkedParts(_ jws: String) -> Result<CompactJWS, VerificationFailure> {
        CompactJWS.split(jws, maximumLength: configuration.maximumLength)
    }

    /// Every check for `kind`, with the decoded envelope and payload bytes when they pass.
    func verifiedEnvelope<Model: Decodable>(_ jws: String, as model: Model.Type, kind: SignedPayloadKind)
        -> Result<(PayloadEnvelope<Model>, [UInt8]), VerificationFailure>
    {
        let parts: CompactJWS
        switch checkedParts(jws) {
        case .success(let value): parts = value
        case .failure(let failure): return .failure(failure)
        }
        if let failure = cheapRefusal(parts) { return .failure(failure) }
        let bytes: [UInt8]
        switch parts.payloadBytes {
        case .success(let value): bytes = value
        case .failure(let failure): return .failure(failure)
        }
        let envelope: PayloadEnvelope<Model>
        switch decodePayload(bytes, as: Model.self, kind: kind) {
        case .success(let value): envelope = value
        case .failure(let failure): return .failure(failure)
        }
        if let failure = checkSignatureAndClaims(parts, claims: envelope.claims, kind: kind) { return .failure(failure) }
        return .success((envelope, bytes))
    }

    /// Header, chain and signature (or the header alone where signatures are skipped), then the payload checks.
    func checkSignatureAndClaims(_ parts: CompactJWS, claims: SignedClaims, kind: SignedPayloadKind)
        -> VerificationFailure?
    {
        if !configuration.skipsSignature {
            if let failure = verifySignature(parts, claims: claims) { return failure }
        } else if case .failure(let failure) = JWSHeader.decode(parts.header) {
            return failure
        }
        return checkClaims(claims, kind: kind)
    }

    /// A verified payload that did not decode: ``SignedPayload/incomplete(_:)`` when it lacks only fields
    /// Tally's model requires, else `VERIFICATION_FAILURE` naming the field.
    func decodeFailure(_ error: PayloadDecoding.ModelError, bytes: [UInt8], kind: SignedPayloadKind)
        -> Result<SignedPayload, VerificationFailure>
    {
        guard SparsePayload.isMissingRequiredField(error, kind: kind) else {
            return .failure(PayloadDecoding.undecodable(error, kind: kind))
        }
        let decode: (Data) throws -> Void = switch kind {
        case .renewalInfo: { _ = try PayloadDecoding.shared.decode(RenewalInfo.self, from: $0) }
        default: { _ = try PayloadDecoding.shared.decode(StoreTransaction.self, from: $0) }
        }
        return SparsePayload.incomplete(bytes, kind: kind, decode: decode)
            .map(SignedPayload.incomplete)
            .mapError { error in PayloadDecoding.undecodable(error, kind: kind) }
    }

    func decodePayload<Model: Decodable>(_ bytes: [UInt8], as model: Model.Type, kind: SignedPayloadKind? = nil)
        -> Result<PayloadEnvelope<Model>, VerificationFailure>
    {
        // A transaction checked as a transaction: one strict decode gives both model and claims.
        if kind == .transaction, Model.self == StoreTransaction.self,
            let envelope = PayloadDecoding.transactionEnvelope(bytes) as? PayloadEnvelope<Model>
        {
            return .success(envelope)
        }
        // A notification about a transaction, flat but for `data`: the same, without `JSONDecoder`.
        if kind == .notification, Model.self == ServerNotification.self,
            let envelope = PayloadDecoding.flatNotificationEnvelope(bytes) as? PayloadEnvelope<Model>
        {
            return .success(envelope)
        }
        return PayloadDecoding.envelope(bytes, as: Model.self)
    }
}
