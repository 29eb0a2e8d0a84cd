import Foundation
import TallyCore

extension ServerClient {
    /// `POST /v1/offers/promotional/signature` for the link's customer, with its customer token (docs/server.md,
    /// *Offers*): the V1 signature when the purchase carries an app account token (the signature binds it), else
    /// the V2 JWS. A refusal is ``StoreError/Code/serverRefused`` with the server's code; no answer is
    /// ``StoreError/Code/networkError``.
    func promotionalOfferSignature(_ request: PromotionalOfferRequest) async -> Result<PromotionalOfferSignature, StoreError> {
        var fields: [String: String] = ["productId": request.productId, "offerIdentifier": request.offerId,
                                        "appUserId": link.appUserId]
        if let token = request.appAccountToken { fields["appAccountToken"] = token.uuidString.lowercased() }
        let what = "the signature of offer \(request.offerId) of \(request.productId)"
        return await postOffer("/v1/offers/promotional/signature", fields, what: what).flatMap { data in
            guard let signature = PromotionalOfferSignature(tallyServeAnswer: data,
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
        var fields = ["productId": productId, "appUserId": link.appUserId]
        if let transactionId { fields["transactionId"] = transactionId }
        let what = "the introductory offer eligibility of \(productId)"
        return await postOffer("/v1/offers/introductory/eligibility", fields, what: what).flatMap { data in
            guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let jws = object["signature"] as? String, !jws.isEmpty else {
                return .failure(StoreError(.backend, "\(what): the server's answer does not decode"))
            }
            return .success(jws)
        }
    }

    /// POSTs `fields` to the offer route `path`: the body of a 200; a 4xx other than 408 and 429 is a refusal for
    /// good (``StoreError/Code/serverRefused``); anything else, or no answer, ``StoreError/Code/networkError``.
    private func postOffer(_ path: String, _ fields: [String: String], what: String) async -> Result<Data, StoreError> {
        guard let url = CustomerRoute.url(server: link.url, route: path),
              let body = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys]) else {
            return .failure(StoreError(.backend, "\(what): cannot form the request from \(link.url)"))
        }
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
            return .success(received.answer.body)
        }
    }
}
