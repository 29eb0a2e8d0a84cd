import Foundation
import TallyCore

extension ServerClient {
    /// `POST /v1/offers/promotional/signature` for the link's customer, with its customer token (docs/server.md,
    /// *Offers*): the V1 signature when the purchase carries an app account token (the signature binds it), else
    /// the V2 JWS. A refusal is ``StoreError/Code/serverRefused`` with the server's code; no answer is
    /// ``StoreError/Code/networkError``.
    func promotionalOfferSignature(_ request: PromotionalOfferRequest) async -> Result<PromotionalOfferSignature, StoreError> {
        var base = link.url.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        guard let url = URL(string: base + "/v1/offers/promotional/signature") else {
            return .failure(StoreError(.backend, "cannot form the offer signature URL from \(link.url)"))
        }
        var fields: [String: String] = ["productId": request.productId, "offerIdentifier": request.offerId,
                                        "appUserId": link.appUserId]
        if let token = request.appAccountToken { fields["appAccountToken"] = token.uuidString.lowercased() }
        guard let body = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys]) else {
            return .failure(StoreError(.backend, "the offer signature request does not encode"))
        }
        let what = "the signature of offer \(request.offerId) of \(request.productId)"
        switch await send("POST", url: url, body: body) {
        case .failure(let reason):
            return .failure(StoreError(.networkError, "\(what): \(reason.description)"))
        case .success(let received):
            guard received.status == 200 else {
                let failure = ServerCustomer.error(in: received.answer.body)
                if (400..<500).contains(received.status), received.status != 429, received.status != 408 {
                    return .failure(StoreError(serverRefused: received.status, code: failure.code, message: failure.message))
                }
                return .failure(StoreError(.networkError, "\(what): the server answered \(received.status) "
                    + "\(failure.code): \(failure.message)"))
            }
            guard let signature = PromotionalOfferSignature(tallyServeAnswer: received.answer.body,
                                                                appAccountTokenBound: request.appAccountToken != nil) else {
                return .failure(StoreError(.backend, "\(what): the server's answer does not decode"))
            }
            return .success(signature)
        }
    }

    /// `POST /v1/offers/introductory/eligibility` for the link's customer, with its customer token: the
    /// introductory offer eligibility JWS the server signs from the customer's history in the product's group.
    /// `transactionId` (a transaction of the device's App Store account, which Apple's JWS names) is sent when known.
    func introductoryEligibility(productId: String, transactionId: String?) async -> Result<String, StoreError> {
        var base = link.url.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        var fields = ["productId": productId, "appUserId": link.appUserId]
        if let transactionId { fields["transactionId"] = transactionId }
        guard let url = URL(string: base + "/v1/offers/introductory/eligibility"),
              let body = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys]) else {
            return .failure(StoreError(.backend, "cannot form the eligibility request from \(link.url)"))
        }
        let what = "the introductory offer eligibility of \(productId)"
        switch await send("POST", url: url, body: body) {
        case .failure(let reason):
            return .failure(StoreError(.networkError, "\(what): \(reason.description)"))
        case .success(let received):
            guard received.status == 200 else {
                let failure = ServerCustomer.error(in: received.answer.body)
                if (400..<500).contains(received.status), received.status != 429, received.status != 408 {
                    return .failure(StoreError(serverRefused: received.status, code: failure.code, message: failure.message))
                }
                return .failure(StoreError(.networkError, "\(what): the server answered \(received.status) \(failure.code)"))
            }
            guard let object = try? JSONSerialization.jsonObject(with: received.answer.body) as? [String: Any],
                  let jws = object["signature"] as? String, !jws.isEmpty else {
                return .failure(StoreError(.backend, "\(what): the server's answer does not decode"))
            }
            return .success(jws)
        }
    }
}
