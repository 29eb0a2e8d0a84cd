import Foundation
import TallyCore
import TallyHTTP
import TallyStorage

extension EntitlementAPI {
    /// The route with its customer resolved: an anonymous id (``TallyCore/AnonymousCustomerId``, the only kind that
    /// can be an alias) that is an alias answers for the identified customer, who is then the one every check (the
    /// customer token, the rate bucket) and the route see. Any other id is not looked up (the customer `GET`'s hot
    /// path is unchanged), nor is anything before a known key was sent, nor the alias route's own customer.
    func resolvingAlias(_ match: RouteMatch, _ request: HTTPRequest) throws(APIError) -> RouteMatch {
        guard match.route.isCustomerScoped, match.route != .aliases, AnonymousCustomerId.isAnonymous(match.appUserId),
              let key = KeyRing.bearerToken(request.header("authorization")), keys.entry(forKey: key) != nil,
              let target = try aliasTarget(of: match.appUserId)
        else { return match }
        var resolved = match
        resolved.appUserId = target
        return resolved
    }

    /// The customer an anonymous id is an alias of; nil for an id that is not anonymous or not aliased.
    func aliasTarget(of appUserId: String) throws(APIError) -> String? {
        guard AnonymousCustomerId.isAnonymous(appUserId) else { return nil }
        return try storeCall { () throws(CustomerStoreError) in try store.customerId(aliasedBy: appUserId) }
    }

    /// `POST /v1/customers/{appUserId}/aliases` `{"alias":"$tally:anon:…"}`: makes the anonymous id a second id of
    /// this (identified) customer and moves its purchases here (`CustomerStore.alias(_:to:at:)`). 422
    /// `invalid_alias` when the alias is not anonymous or the customer is; 409 `alias_conflict` when the alias
    /// already names another customer; the same alias again is 200 `unchanged`.
    func postAlias(_ appUserId: String, _ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        guard !AnonymousCustomerId.isAnonymous(appUserId) else {
            throw .invalidAlias("an anonymous id cannot take aliases: alias it to an identified customer's id")
        }
        let alias = try requiredString(bodyObject(request), "alias")
        guard AnonymousCustomerId.isAnonymous(alias) else {
            throw .invalidAlias("only an anonymous id ('\(AnonymousCustomerId.prefix)' and \(AnonymousCustomerId.hexDigits) "
                + "lowercase hex digits) can be an alias")
        }
        let now = clock.now()
        let outcome = try storeCall { () throws(CustomerStoreError) in
            try noteWrite { () throws(CustomerStoreError) in try store.alias(alias, to: appUserId, at: now) }
        }
        if case .conflict = outcome { throw .aliasConflict }
        // After the COMMIT, before the answer: neither id may be served from a state cached before the move.
        cache.invalidate(alias)
        cache.invalidate(appUserId)
        return APIResponse.json(JSONWriter.object { writer in
            writer.field("appUserId", appUserId)
            writer.field("alias", alias)
            writer.field("outcome", outcome == .aliased ? "aliased" : "unchanged")
        })
    }
}

extension EntitlementAPI {
    /// `GET /v1/dashboard/identity?id=` (dashboard or secret key): the customer's aliases and attributes, for the
    /// customer page. An anonymous id that is an alias answers for its customer, named in `aliasOf`.
    func dashboardIdentity(_ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        guard let id = request.query["id"], !id.isEmpty else { throw .invalidRequest("id is required: a customer's id") }
        guard id.utf8.count <= Router.maxAppUserIdBytes else {
            throw .invalidRequest("id is \(id.utf8.count) bytes; the limit is \(Router.maxAppUserIdBytes)")
        }
        let (target, aliases, attributes) = try storeCall {
            () throws(CustomerStoreError) -> (String?, [CustomerAlias], [String: String]) in
            let target = AnonymousCustomerId.isAnonymous(id) ? try store.customerId(aliasedBy: id) : nil
            let customer = target ?? id
            return (target, try store.aliases(of: customer), try store.attributes(of: customer))
        }
        return Self.dashboardJSON(JSONWriter.object { writer in
            writer.field("appUserId", target ?? id)
            writer.field("aliasOf", target)
            writer.objects("aliases", aliases) { writer, alias in
                writer.field("alias", alias.alias)
                writer.field("created", alias.created)
            }
            writer.field("attributes", raw: Self.encodeAttributes(attributes))
        })
    }
}
