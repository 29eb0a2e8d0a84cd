import TallyCore

extension SignedDataVerifier {
    /// Apple's payload checks for `kind`: app identity (INVALID_APP_IDENTIFIER), then environment
    /// (INVALID_ENVIRONMENT). nil when they pass.
    func checkClaims(_ claims: SignedClaims, kind: SignedPayloadKind) -> VerificationFailure? {
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
            let (source, identity) = notificationIdentity(claims)
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
    func notificationIdentity(_ claims: SignedClaims) -> (String, SignedClaims.AppIdentity?) {
        if let data = claims.data { return ("data", data) }
        if let summary = claims.summary { return ("summary", summary) }
        if let token = claims.externalPurchaseToken { return ("externalPurchaseToken", token) }
        if let appData = claims.appData { return ("appData", appData) }
        return ("data", nil)
    }

    func checkBundle(_ value: String?, field: String) -> VerificationFailure? {
        guard let expected = configuration.bundleId, value != expected else { return nil }
        return VerificationFailure(
            .invalidAppIdentifier, "\(field) is \(Self.quoted(value)); this verifier expects \"\(expected)\"")
    }

    func checkAppAppleId(_ value: Int64?, field: String) -> VerificationFailure? {
        guard configuration.environment == .production, value != configuration.appAppleId else { return nil }
        let expected = configuration.appAppleId.map(String.init) ?? "none"
        return VerificationFailure(
            .invalidAppIdentifier, "\(field) is \(value.map(String.init) ?? "missing"); this verifier expects \(expected)")
    }

    func checkEnvironment(_ value: String?, field: String) -> VerificationFailure? {
        guard value != configuration.environment.rawValue else { return nil }
        return VerificationFailure(
            .invalidEnvironment,
            "\(field) is \(Self.quoted(value)); this verifier expects \"\(configuration.environment.rawValue)\"")
    }

    static func quoted(_ value: String?) -> String { value.map { "\"\($0)\"" } ?? "missing" }
}
