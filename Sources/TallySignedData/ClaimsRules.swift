import TallyCore

/// Apple's payload checks, as its app-store-server-library makes them after the signature: app identity
/// (INVALID_APP_IDENTIFIER), then environment (INVALID_ENVIRONMENT). Both verifiers (TallyVerify's and the
/// Apple-path one in TallyStoreKit) apply these, so the rule lives here once.
package struct ClaimsRules: Sendable {
    /// The expected `bundleId`; nil means it is not checked.
    package var bundleId: String?
    /// The expected `appAppleId`, compared only in Production.
    package var appAppleId: Int64?
    /// The expected environment.
    package var environment: StoreEnvironment

    /// Rules for one app in one environment.
    package init(bundleId: String?, appAppleId: Int64?, environment: StoreEnvironment) {
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.environment = environment
    }

    /// The first failed check for `kind`; nil when they all pass.
    package func check(_ claims: SignedClaims, kind: SignedPayloadKind) -> VerificationFailure? {
        switch kind {
        case .transaction:
            return checkBundle(claims.bundleId, field: "bundleId")
                ?? checkEnvironment(claims.environment, field: "environment")
        case .renewalInfo:
            return checkEnvironment(claims.environment, field: "environment")
        case .appTransaction:
            return checkBundle(claims.bundleId, field: "bundleId")
                ?? checkAppAppleId(claims.appAppleId, field: "appAppleId")
                ?? checkEnvironment(claims.receiptType, field: "receiptType")
        case .notification:
            let (source, identity) = Self.notificationIdentity(claims)
            var environment = identity?.environment
            if source == "externalPurchaseToken" {
                environment = (identity?.externalPurchaseId ?? "").hasPrefix("SANDBOX") ? "Sandbox" : "Production"
            }
            return checkBundle(identity?.bundleId, field: "\(source).bundleId")
                ?? checkAppAppleId(identity?.appAppleId, field: "\(source).appAppleId")
                ?? checkEnvironment(environment, field: "\(source).environment")
        }
    }

    /// Where a notification names its app: `data`, else `summary`, else `externalPurchaseToken`, else `appData`.
    static func notificationIdentity(_ claims: SignedClaims) -> (String, SignedClaims.AppIdentity?) {
        if let data = claims.data { return ("data", data) }
        if let summary = claims.summary { return ("summary", summary) }
        if let token = claims.externalPurchaseToken { return ("externalPurchaseToken", token) }
        if let appData = claims.appData { return ("appData", appData) }
        return ("data", nil)
    }

    func checkBundle(_ value: String?, field: String) -> VerificationFailure? {
        guard let expected = bundleId, value != expected else { return nil }
        return VerificationFailure(
            .invalidAppIdentifier, "\(field) is \(Self.quoted(value)); this verifier expects \"\(expected)\"")
    }

    func checkAppAppleId(_ value: Int64?, field: String) -> VerificationFailure? {
        guard environment == .production, value != appAppleId else { return nil }
        let expected = appAppleId.map(String.init) ?? "none"
        return VerificationFailure(
            .invalidAppIdentifier, "\(field) is \(value.map(String.init) ?? "missing"); this verifier expects \(expected)")
    }

    func checkEnvironment(_ value: String?, field: String) -> VerificationFailure? {
        guard value != environment.rawValue else { return nil }
        return VerificationFailure(
            .invalidEnvironment, "\(field) is \(Self.quoted(value)); this verifier expects \"\(environment.rawValue)\"")
    }

    static func quoted(_ value: String?) -> String { value.map { "\"\($0)\"" } ?? "missing" }
}
