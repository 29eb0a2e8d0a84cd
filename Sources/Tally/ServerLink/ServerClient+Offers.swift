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
            guard let signature = Self.signature(in: received.answer.body, bound: request.appAccountToken != nil) else {
                return .failure(StoreError(.backend, "\(what): the server's answer does not decode"))
            }
            return .success(signature)
        }
    }

    /// The signature of an answer `{"v1": {keyIdentifier, nonce, timestamp, signature}, "v2": "…"}`: V1 when the
    /// purchase carries a token, else V2.
    static func signature(in data: Data, bound: Bool) -> PromotionalOfferSignature? {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        if !bound, let jws = object["v2"] as? String, !jws.isEmpty { return .jws(jws) }
        guard let v1 = object["v1"] as? [String: Any], let keyId = v1["keyIdentifier"] as? String,
              let nonceText = v1["nonce"] as? String, let nonce = UUID(uuidString: nonceText),
              let timestamp = (v1["timestamp"] as? NSNumber)?.int64Value,
              let signatureText = v1["signature"] as? String, let signature = Data(base64Encoded: signatureText)
        else { return nil }
        return .v1(keyId: keyId, nonce: nonce, signature: signature, timestamp: timestamp)
    }
}
