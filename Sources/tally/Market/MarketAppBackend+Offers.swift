import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Tally
import TallyCore

/// The demo backend's offer signatures: what an app's server does for a promotional offer or an introductory
/// offer eligibility, with the secret key (`POST /v1/offers/promotional/signature`,
/// `POST /v1/offers/introductory/eligibility`, docs/server.md *Offers*), handed to the engine through
/// ``ServerLink/promotionalOfferSigner`` and ``ServerLink/introductoryEligibilitySigner``.
extension MarketAppBackend {
    /// The engine's promotional offer signer over this backend.
    var promotionalOfferSigner: PromotionalOfferSigner {
        { request in
            var fields = ["productId": request.productId, "offerIdentifier": request.offerId]
            if let appUserId = request.appUserId { fields["appUserId"] = appUserId }
            if let token = request.appAccountToken { fields["appAccountToken"] = token.uuidString.lowercased() }
            let data = try await post("/v1/offers/promotional/signature", fields)
            guard let signature = PromotionalOfferSignature(tallyServeAnswer: data,
                                                            appAccountTokenBound: request.appAccountToken != nil) else {
                throw MarketBackendError("the server's offer signature does not decode")
            }
            return signature
        }
    }

    /// The engine's introductory offer eligibility signer over this backend.
    var introductoryEligibilitySigner: @Sendable (IntroductoryEligibilityRequest) async throws -> String {
        { request in
            var fields = ["productId": request.productId]
            if let appUserId = request.appUserId { fields["appUserId"] = appUserId }
            if let transactionId = request.transactionId { fields["transactionId"] = transactionId }
            let data = try await post("/v1/offers/introductory/eligibility", fields)
            guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let jws = object["signature"] as? String else {
                throw MarketBackendError("the server's eligibility answer does not decode")
            }
            return jws
        }
    }

    /// POSTs `fields` with the secret key; the body of a 200, else a ``MarketBackendError`` naming the refusal.
    private func post(_ path: String, _ fields: [String: String]) async throws -> Data {
        guard let target = CustomerRoute.url(server: url, route: path) else { throw MarketBackendError("cannot form \(path) from \(url)") }
        let (data, status) = try await post(target, try JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys]))
        guard status == 200 else {
            let failure = (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["error"] as? [String: Any]
            throw MarketBackendError("the server refused \(path): \(status) \(failure?["code"] as? String ?? "?"): "
                + "\(failure?["message"] as? String ?? String(decoding: data.prefix(200), as: UTF8.self))")
        }
        return data
    }
}
