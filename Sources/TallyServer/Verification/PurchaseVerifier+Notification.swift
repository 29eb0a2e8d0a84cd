import Foundation
import TallyCore
import TallyVerify

extension PurchaseVerifier {
    /// Verifies a notification's `signedPayload` fully, nested signed transaction and renewal info included
    /// (TallyVerify's ``SignedDataVerifier/verifyNotification(_:)``), with the verifier of the environment its
    /// payload names in `data`, `summary` or `appData` (an external purchase token's by its `SANDBOX` prefix).
    func verifyNotification(_ signedPayload: String) -> Result<ServerNotification, VerificationFailure> {
        if let only = onlyVerifier { return only.verifyNotification(signedPayload) }
        let environment = Self.claimedNotificationEnvironment(signedPayload)
        if let environment, let verifier = verifier(for: environment) {
            return verifier.verifyNotification(signedPayload)
        }
        if let environment {
            let accepted = settings.environments.map(\.rawValue).joined(separator: ", ")
            return .failure(VerificationFailure(
                .invalidEnvironment, "the notification is from \(environment.rawValue); this server accepts \(accepted)"))
        }
        guard let first = settings.environments.first, let verifier = verifier(for: first) else {
            return .failure(VerificationFailure(.verificationFailure, "no environment is accepted"))
        }
        return verifier.verifyNotification(signedPayload)
    }

    /// The environment a notification's payload claims, read without verifying (only to pick the verifier).
    static func claimedNotificationEnvironment(_ jws: String) -> StoreEnvironment? {
        let bytes = jws.utf8
        guard let first = bytes.firstIndex(of: UInt8(ascii: ".")),
              let second = bytes[bytes.index(after: first)...].firstIndex(of: UInt8(ascii: ".")),
              let payload = Base64URL.decode(Substring(bytes[bytes.index(after: first)..<second])),
              !JSONDepthScan.exceeds(payload, limit: 64),
              let claim = try? JSONDecoder().decode(NotificationEnvironmentClaim.self, from: Data(payload))
        else { return nil }
        if let name = claim.data?.environment ?? claim.summary?.environment ?? claim.appData?.environment {
            return StoreEnvironment(rawValue: name)
        }
        if let token = claim.externalPurchaseToken?.externalPurchaseId {
            return token.hasPrefix("SANDBOX") ? .sandbox : .production
        }
        return nil
    }

    /// The claims read before verifying; Foundation skips the rest of the payload.
    private struct NotificationEnvironmentClaim: Decodable {
        struct Identity: Decodable {
            let environment: String?
            let externalPurchaseId: String?
        }
        let data: Identity?
        let summary: Identity?
        let appData: Identity?
        let externalPurchaseToken: Identity?
    }
}
