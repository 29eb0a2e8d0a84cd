import TallyCore

extension SignedDataVerifier {
    /// Verifies and decodes the signed data nested in a notification; a nested failure fails the
    /// notification with the nested reason, its detail prefixed by the field name.
    func verifyNested(_ notification: ServerNotification) -> Result<ServerNotification, VerificationFailure> {
        guard configuration.verifiesNestedPayloads else { return .success(notification) }
        var result = notification
        if let jws = notification.data?.signedTransactionInfo {
            switch verifyTransaction(jws) {
            case .success(let transaction): result.data?.transactionInfo = transaction
            case .failure(let failure): return .failure(Self.nested(failure, "data.signedTransactionInfo"))
            }
        }
        if let jws = notification.data?.signedRenewalInfo {
            switch verifyRenewalInfo(jws) {
            case .success(let renewal): result.data?.renewalInfo = renewal
            case .failure(let failure): return .failure(Self.nested(failure, "data.signedRenewalInfo"))
            }
        }
        if let jws = notification.appData?.signedAppTransactionInfo {
            switch verifyAppTransaction(jws) {
            case .success(let appTransaction): result.appData?.appTransaction = appTransaction
            case .failure(let failure): return .failure(Self.nested(failure, "appData.signedAppTransactionInfo"))
            }
        }
        return .success(result)
    }

    static func nested(_ failure: VerificationFailure, _ field: String) -> VerificationFailure {
        VerificationFailure(failure.reason, "\(field): \(failure.detail)")
    }
}
