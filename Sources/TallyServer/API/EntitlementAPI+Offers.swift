import Foundation
import TallyCore
import TallyCrypto
import TallyHTTP
import TallyStorage

extension EntitlementAPI {
    /// `POST /v1/offers/promotional/signature` (secret key): the V1 signature and the V2 JWS of a promotional offer
    /// that `offers.promotional` lists, for an auto-renewable product of the catalog whose promotional offers hold it.
    /// `byPublicKey`: only an offer listed with `customerToken`, for the customer the request's token speaks for
    /// (``tokenCustomer(_:_:)``); any other offer is 403 `forbidden`, as the route is to a public key.
    func promotionalOfferSignature(_ request: HTTPRequest, byPublicKey: Bool) throws(APIError) -> HTTPResponse {
        let body = try bodyObject(request)
        let productId = try requiredString(body, "productId")
        let offerIdentifier = try requiredString(body, "offerIdentifier")
        let token = try optionalString(body, "appAccountToken")
        let accountToken = try token.map { (text) throws(APIError) in
            guard let canonical = AccountToken.canonical(text) else {
                throw .invalidRequest("the field \"appAccountToken\" must be a UUID")
            }
            return canonical
        }
        let transactionId = try optionalString(body, "transactionId")
        var speaker: String?
        if byPublicKey {
            guard configuration.offers.promotionalPolicy(offerIdentifier)?.customerToken == true else { throw .forbidden }
            speaker = try tokenCustomer(request, body)
        }
        let signatures = try offerSignatures()
        let subscription = try autoRenewable(productId)
        guard subscription.promotionalOffers.contains(where: { $0.id.map { $0.hasSameBytes(as: offerIdentifier) } ?? false })
        else { throw .invalidOffer("the product '\(productId)' has no promotional offer '\(offerIdentifier)' in the catalog") }
        guard let policy = configuration.offers.promotionalPolicy(offerIdentifier) else {
            throw .offerNotAllowed(offerIdentifier)
        }
        let now = clock.now()
        if policy.needsCustomer {
            let appUserId: String
            if let speaker { appUserId = speaker } else {
                appUserId = try customerId(body, required: "offers.promotional limits who gets '\(offerIdentifier)'")
            }
            if policy.onlyLapsed, try !customerState(appUserId, now: now).state.hasLapsed(groupId: subscription.groupId) {
                throw .offerNotEligible("'\(offerIdentifier)' is only for customers who lapsed in the group of '\(productId)'")
            }
            if let limit = policy.perCustomer, !(try storeCall { () throws(CustomerStoreError) in
                try store.countOfferSignature(offerIdentifier, for: appUserId, limit: limit)
            }) {
                throw .offerNotEligible("'\(offerIdentifier)' was signed \(limit) time(s) for this customer, the limit (perCustomer)")
            }
        }
        let v1: OfferSignatures.V1
        let v2: String
        do throws(CryptoError) {
            v1 = try signatures.v1(productId: productId, offerIdentifier: offerIdentifier, appAccountToken: accountToken, now: now)
            v2 = try signatures.v2(productId: productId, offerIdentifier: offerIdentifier, transactionId: transactionId, now: now)
        } catch {
            throw Self.signingFailure(error)
        }
        let v1JSON = JSONWriter.object { writer in
            writer.field("keyIdentifier", v1.keyIdentifier)
            writer.field("nonce", v1.nonce)
            writer.field("timestamp", Int(v1.timestamp))
            writer.field("signature", v1.signature)
        }
        var response = APIResponse.json(JSONWriter.object { writer in
            writer.field("v1", raw: v1JSON)
            writer.field("v2", v2)
        })
        response.headers.append(Self.noStore)  // a signature is for one purchase: no cache keeps it
        return response
    }

    /// `POST /v1/offers/introductory/eligibility` (secret key): the introductory offer eligibility JWS for the
    /// customer `appUserId` and an auto-renewable product, allowing the offer when the customer's stored history
    /// has used none in the product's group (``CustomerState/isEligibleForIntroductoryOffer(groupId:)``).
    /// `transactionId` defaults to the customer's first stored transaction in the group, else any of theirs.
    /// `byPublicKey` (with `offers.introductoryEligibility.customerToken`): only for the customer the request's token
    /// speaks for (``tokenCustomer(_:_:)``).
    func introductoryOfferEligibility(_ request: HTTPRequest, byPublicKey: Bool) throws(APIError) -> HTTPResponse {
        let body = try bodyObject(request)
        let productId = try requiredString(body, "productId")
        let appUserId = try byPublicKey ? tokenCustomer(request, body) : customerId(body, required: nil)
        if let token = try optionalString(body, "appAccountToken"), AccountToken.canonical(token) == nil {
            throw .invalidRequest("the field \"appAccountToken\" must be a UUID")
        }
        let givenTransactionId = try optionalString(body, "transactionId")
        let signatures = try offerSignatures()
        let subscription = try autoRenewable(productId)
        let now = clock.now()
        let (record, state) = try customerState(appUserId, now: now)
        let allow = state.isEligibleForIntroductoryOffer(groupId: subscription.groupId)
        let inGroup = record.transactions.map(\.transaction)
            .filter { configuration.catalog.product($0.productId)?.subscription?.groupId == subscription.groupId }
            .min { $0.purchaseDate < $1.purchaseDate }
        guard let transactionId = givenTransactionId ?? inGroup?.originalTransactionId
            ?? record.transactions.first?.transaction.transactionId
        else { throw .invalidRequest("the field \"transactionId\" is required: the customer has no stored transaction") }
        let jws: String
        do throws(CryptoError) {
            jws = try signatures.eligibility(productId: productId, allowIntroductoryOffer: allow,
                                             transactionId: transactionId, now: now)
        } catch {
            throw Self.signingFailure(error)
        }
        var response = APIResponse.json(JSONWriter.object { writer in
            writer.field("signature", jws)
            writer.field("allowIntroductoryOffer", allow)
        })
        response.headers.append(Self.noStore)
        return response
    }

    /// Whether a public key may call the offer route `route` at all: some promotional offer is listed with
    /// `customerToken`, or `offers.introductoryEligibility.customerToken` is on. Else it is 403 `forbidden` before
    /// its body is read, as for every secret route.
    func offersTakeCustomerTokens(on route: Route) -> Bool {
        switch route {
        case .promotionalOfferSignature: configuration.offers.promotional.contains { $0.customerToken }
        case .introductoryOfferEligibility: configuration.offers.eligibilityByCustomerToken
        default: false
        }
    }

    /// For a public-key call: the body's `appUserId`, once the request's `Tally-Customer-Token` speaks for it
    /// (``CustomerTokenCheck``, ids as bytes; an anonymous id that is an alias for its customer, as on the customer
    /// routes). 401 `customer_token_required` without a token (an anonymous id too: the offers are limited per
    /// customer, and anyone can make new anonymous ids), 400 without `appUserId`, 401 `invalid_customer_token`,
    /// 403 `customer_token_mismatch`.
    private func tokenCustomer(_ request: HTTPRequest, _ body: [String: JSONTree]) throws(APIError) -> String {
        guard request.header(CustomerTokenCheck.headerName) != nil else { throw .customerTokenRequired }
        let appUserId = try customerId(body, required: "a customer token speaks for the customer named here")
        let speaker = try aliasTarget(of: appUserId) ?? appUserId
        if let refusal = customerTokens.refusal(request, appUserId: speaker, required: true) { throw refusal }
        return appUserId
    }

    /// The body's `appUserId` (400 when missing, with `reason` saying why it is needed, or over the length limit).
    private func customerId(_ body: [String: JSONTree], required reason: String?) throws(APIError) -> String {
        if let reason, body["appUserId"] == nil { throw .invalidRequest("the field \"appUserId\" is required: \(reason)") }
        let appUserId = try requiredString(body, "appUserId")
        guard appUserId.utf8.count <= Router.maxAppUserIdBytes else {
            throw .invalidRequest("appUserId is \(appUserId.utf8.count) bytes; the limit is \(Router.maxAppUserIdBytes)")
        }
        return appUserId
    }

    /// The customer's stored record and its state at `now`.
    private func customerState(_ appUserId: String, now: Date) throws(APIError) -> (record: CustomerRecord, state: CustomerState) {
        let record = try storeCall { () throws(CustomerStoreError) in try store.customerState(appUserId, at: now) }
        return (record, Self.encodeCustomer(record, rules: offerings.current().rules, now: now).state)
    }

    /// The signer of the configured in-app purchase key; 409 `not_configured` without `appStoreServerAPI`.
    private func offerSignatures() throws(APIError) -> OfferSignatures {
        guard let settings = configuration.appStoreServerAPI else { throw Self.apiError(ReconcileError.notConfigured) }
        return OfferSignatures(keyId: settings.keyId, issuerId: settings.issuerId,
                               bundleId: configuration.verification.bundleId, key: settings.privateKey)
    }

    /// The subscription of catalog product `productId`; 422 `invalid_offer` when the catalog lacks it or it is
    /// not an auto-renewable subscription.
    private func autoRenewable(_ productId: String) throws(APIError) -> CatalogProduct.Subscription {
        guard let product = configuration.catalog.product(productId) else {
            throw .invalidOffer("the catalog has no product '\(productId)'")
        }
        guard product.kind == .autoRenewable, let subscription = product.subscription else {
            throw .invalidOffer("the product '\(productId)' is not an auto-renewable subscription")
        }
        return subscription
    }

    /// An optional string field: nil when absent or null, 400 for another type, empty or over 1,024 bytes.
    private func optionalString(_ members: [String: JSONTree], _ name: String) throws(APIError) -> String? {
        guard let value = members[name] else { return nil }
        if case .null = value { return nil }
        let text = try requiredString(members, name)
        guard text.utf8.count <= 1_024 else { throw .invalidRequest("the field \"\(name)\" is over 1024 bytes") }
        return text
    }

    /// A key OpenSSL would not sign with: a server fault, logged.
    private static func signingFailure(_ error: CryptoError) -> APIError {
        var answer = APIError(500, "signing_failed", "the offer could not be signed with the in-app purchase key")
        answer.logMessage = "offers: \(error)"
        return answer
    }
}
