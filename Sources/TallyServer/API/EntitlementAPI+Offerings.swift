import Foundation
import TallyCore
import TallyHTTP
import TallyStorage

extension EntitlementAPI {
    /// `GET /v1/offerings?placement=&appUserId=&storefront=&appVersion=` (public key, and the customer's token when
    /// the app has one): every offering of the live
    /// document and the one chosen for the placement and customer (TallyCore's `OfferingsDocument/choose`). The ETag
    /// names the document and what was chosen, so `If-None-Match` is answered 304 without building the body.
    func getOfferings(_ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let live = offerings.current()
        let query = try Self.offeringsQuery(request)
        let placement = query[0], appUserId = query[1], storefront = query[2], appVersion = query[3]
        if let storefront, storefront.utf8.count != 3 || !storefront.utf8.allSatisfy({ (0x41...0x5A).contains($0) }) {
            throw .invalidRequest("storefront must be an ISO 3166-1 alpha-3 code such as USA (StoreKit's countryCode)")
        }
        if let appVersion, AppVersionNumber(appVersion) == nil {
            throw .invalidRequest("appVersion must be a dotted version such as 2.1 (CFBundleShortVersionString)")
        }
        // A customer token, when sent, must speak for the `appUserId` asked about (an app that sends one finds a
        // wrong one out here too); the answer itself is not private, so none is required.
        if request.header(CustomerTokenCheck.headerName) != nil {
            guard let appUserId else { throw .invalidRequest("a customer token needs the appUserId it speaks for") }
            if let refusal = customerTokens.refusal(request, appUserId: appUserId) { throw refusal }
        }
        let context = OfferingsContext(appUserId: appUserId, storefront: storefront, appVersion: appVersion)
        let (current, experiment) = live.document.choose(placement: placement, context: context)
        let tag = Self.offeringsETag(live, current: current, placement: placement, experiment: experiment)
        let headers = [HTTPResponse.Field("ETag", tag), Self.offeringsCacheControl]
        if let condition = request.header("if-none-match"), Self.matches(condition, tag) {
            return HTTPResponse(status: 304, headers: headers)
        }
        let body = live.answer(current: current, placement: placement, experiment: experiment) {
            var body = Array(#"{"current":"#.utf8)
            body += current.map { JSONTree.string($0).canonicalBytes() } ?? Array("null".utf8)
            body += Array(#","experiment":"#.utf8)
            if let experiment {
                body += JSONTree.object(["id": .string(experiment.id), "arm": .string(experiment.arm)]).canonicalBytes()
            } else {
                body += Array("null".utf8)
            }
            body += Array(#","offerings":"#.utf8) + live.offeringsJSON + Array(#","placement":"#.utf8)
            body += placement.map { JSONTree.string($0).canonicalBytes() } ?? Array("null".utf8)
            body += Array(#","version":\#(live.version)}"#.utf8)
            return body
        }
        return HTTPResponse(status: 200, headers: [APIResponse.jsonContentType] + headers, body: body)
    }

    /// What every offerings answer says to caches: the client's own may keep it, and must ask again (with the ETag).
    static let offeringsCacheControl = HTTPResponse.Field("Cache-Control", "private, no-cache")

    /// `GET /v1/offerings/document[?version=N]` (secret or dashboard key): a saved version (the newest by default)
    /// with its document, read from the store (not this server's copy), ETag `"N"`.
    func offeringsDocument(_ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let version = try Self.queryVersion(request, "version")
        _ = offerings.current()  // seeds version 1 when the store holds none
        guard let saved = try storeCall({ () throws(CustomerStoreError) in try store.savedOfferings(version: version) })
        else {
            throw APIError(404, "unknown_version", "the offerings document has no version \(version.map(String.init) ?? "yet")")
        }
        if version == nil { offerings.install(saved) }
        return Self.documentResponse(saved)
    }

    /// `PUT /v1/offerings` (secret key): saves the body as the next version when `If-Match` names the newest.
    /// The mapping keys left out keep the live mapping's; `currencies` may not change (they move every balance,
    /// which the store rebuilds only at start: change them in `tally.json`). 428 without `If-Match`, 412 when another
    /// version came first, 422 `invalid_offerings` naming each problem against the catalog.
    func putOfferings(_ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let following = try Self.ifMatchVersion(request)
        let members = try bodyObject(request)
        let live = offerings.current()
        var document: OfferingsDocument
        do {
            document = try OfferingsDocument(root: JSONCursor(tree: .object(members), file: "the body"))
        } catch {
            throw .invalidOfferings(error.message)
        }
        if members["entitlements"] == nil { document.entitlements = live.document.entitlements }
        if members["nonRenewingDurations"] == nil { document.nonRenewingDurations = live.document.nonRenewingDurations }
        return try save(document, following: following, origin: .put, rolledBackTo: nil,
                        currenciesGiven: members["currencies"] != nil)
    }

    /// `POST /v1/offerings/rollback` `{"version":N}` (secret key, `If-Match` on the newest): saves version N's
    /// document again as the next version, checked against today's catalog like a `PUT`.
    func rollBackOfferings(_ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let following = try Self.ifMatchVersion(request)
        let members = try bodyObject(request)
        guard case .number(let number)? = members["version"], let target = Int64(exactly: NSDecimalNumber(decimal: number).doubleValue),
              Decimal(target) == number, target > 0 else {
            throw .invalidRequest("the field \"version\" must be the number of a saved version, such as 2")
        }
        guard let old = try storeCall({ () throws(CustomerStoreError) in try store.savedOfferings(version: target) }) else {
            throw APIError(404, "unknown_version", "the offerings document has no version \(target)")
        }
        let document: OfferingsDocument
        do {
            document = try OfferingsDocument(jsonData: Data(old.document), fileName: "offerings version \(target)")
        } catch {
            throw .invalidOfferings(error.message)
        }
        return try save(document, following: following, origin: .rollback, rolledBackTo: target, currenciesGiven: false)
    }

    /// `GET /v1/offerings/history[?before=N&limit=M]` (secret or dashboard key): versions newest first, without
    /// their documents (`GET /v1/offerings/document?version=N` has each); `next` continues the list.
    func offeringsHistory(_ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let before = try Self.queryVersion(request, "before")
        let limit = try Self.queryVersion(request, "limit").map { Int(min($0, 100)) } ?? 50
        _ = offerings.current()
        let versions = try storeCall { () throws(CustomerStoreError) in
            try store.offeringsHistory(before: before, limit: limit + 1)
        }
        let page = versions.prefix(limit)
        return APIResponse.json(JSONWriter.object { writer in
            writer.objects("versions", page) { writer, saved in Self.writeVersion(saved, into: &writer) }
            writer.key("next")
            if versions.count > limit, let last = page.last { writer.raw(Array(String(last.version).utf8)) } else { writer.null() }
        })
    }

    /// Checks `document` against the catalog and saves it after `following`; installs it here at once.
    private func save(_ document: OfferingsDocument, following: Int64, origin: OfferingsOrigin, rolledBackTo: Int64?,
                      currenciesGiven: Bool) throws(APIError) -> HTTPResponse {
        var document = document
        let currencies = configuration.appConfiguration.currencies
        if currenciesGiven, document.currencies != currencies {
            throw .invalidOfferings("currencies cannot change while the server runs: they move every customer's "
                + "balance, which is rebuilt only at start. Change them in tally.json and restart (this server's: "
                + currencies.keys.sorted().joined(separator: ", ") + "), or leave currencies out")
        }
        document.currencies = currencies
        do {
            try document.validate(against: configuration.catalog, bundleId: configuration.appConfiguration.bundleId)
        } catch {
            throw .invalidOfferings(error.message)
        }
        let now = clock.now()
        let saved = try storeCall { () throws(CustomerStoreError) in
            try store.saveOfferings(document.jsonBytes(), following: following, origin: origin,
                                    rolledBackTo: rolledBackTo, at: now)
        }
        guard let saved else {
            throw .versionConflict(current: try storeCall { () throws(CustomerStoreError) in try store.offeringsVersion() })
        }
        offerings.install(saved, document: document)
        return Self.documentResponse(saved)
    }

    private static func documentResponse(_ saved: SavedOfferings) -> HTTPResponse {
        let body = JSONWriter.object { writer in
            writeVersion(saved, into: &writer)
            writer.field("document", raw: saved.document)
        }
        return HTTPResponse(status: 200, headers: [APIResponse.jsonContentType, .init("ETag", "\"\(saved.version)\""),
                                                   .init("Cache-Control", "no-store")], body: body)
    }

    private static func writeVersion(_ saved: SavedOfferings, into writer: inout JSONWriter) {
        writer.field("version", Int(saved.version))
        writer.field("savedAt", saved.savedAt)
        writer.field("origin", saved.origin.rawValue)
        writer.key("rolledBackTo")
        if let target = saved.rolledBackTo { writer.raw(Array(String(target).utf8)) } else { writer.null() }
    }

    /// `"<document tag>-<version>-<choice>"`: changes when the document or what was chosen from it changes.
    static func offeringsETag(_ live: OfferingsSnapshot, current: String?, placement: String?,
                              experiment: ExperimentAssignment?) -> String {
        // FNV-1a over each part (absent: 0; present: 1 and its bytes), each closed by 0xFF; no allocation.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ byte: UInt8) { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        func add(_ part: String?) {
            if let part {
                add(1)
                part.utf8.forEach(add)
            } else {
                add(0)
            }
            add(0xFF)
        }
        add(current)
        add(placement)
        add(experiment?.id)
        add(experiment?.arm)
        return live.etagPrefix + String(hash, radix: 16) + "\""
    }

    /// Whether an `If-None-Match` value (a list of entity tags, weak ones compared weakly, or `*`) names `tag`,
    /// compared as bytes; the usual single tag sent back as received is one comparison.
    static func matches(_ condition: String, _ tag: String) -> Bool {
        if condition.utf8.elementsEqual(tag.utf8) { return true }
        let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        return condition.utf8.split(separator: UInt8(ascii: ",")).contains { item in
            var text = item.drop(while: blank)
            while let last = text.last, blank(last) { text = text.dropLast() }
            if text.starts(with: "W/".utf8) { text = text.dropFirst(2) }
            return text.elementsEqual("*".utf8) || text.elementsEqual(tag.utf8)
        }
    }

    /// The version `If-Match` names (`"3"`, quoted as an ETag; 0 before the first save); 428 without one.
    static func ifMatchVersion(_ request: HTTPRequest) throws(APIError) -> Int64 {
        guard let value = request.header("if-match") else { throw .preconditionRequired }
        var text = value.trimmingCharacters(in: .whitespaces)
        if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") { text = String(text.dropFirst().dropLast()) }
        guard let version = Int64(text), version >= 0, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            throw .invalidRequest("If-Match must be the version this change follows, in quotes, such as \"3\"")
        }
        return version
    }

    /// `placement`, `appUserId`, `storefront` and `appVersion` of `GET /v1/offerings`, in that order, read in one pass
    /// (names compared as bytes; others ignored): nil when absent; 400 when empty, repeated or over its limit.
    static func offeringsQuery(_ request: HTTPRequest) throws(APIError) -> [String?] {
        let names = ["placement", "appUserId", "storefront", "appVersion"]
        let limits = [OfferingsLimits.maxIdBytes, Router.maxAppUserIdBytes, 3, 64]
        var values: [String?] = [nil, nil, nil, nil]
        for item in request.queryItems {
            guard let index = names.firstIndex(where: { $0.utf8.elementsEqual(item.name.utf8) }) else { continue }
            let name = names[index], value = item.value
            guard values[index] == nil else { throw .invalidRequest("\(name) is given more than once") }
            guard !value.isEmpty else { throw .invalidRequest("\(name) is empty") }
            guard value.utf8.count <= limits[index] else {
                throw .invalidRequest("\(name) is \(value.utf8.count) bytes; the limit is \(limits[index])")
            }
            values[index] = value
        }
        return values
    }

    /// A query item's text: nil when absent; 400 when empty, repeated or longer than `maxBytes`.
    static func queryText(_ request: HTTPRequest, _ name: String, maxBytes: Int) throws(APIError) -> String? {
        let values = request.queryValues(name)
        guard let value = values.first else { return nil }
        guard values.count == 1 else { throw .invalidRequest("\(name) is given \(values.count) times") }
        guard !value.isEmpty else { throw .invalidRequest("\(name) is empty") }
        guard value.utf8.count <= maxBytes else {
            throw .invalidRequest("\(name) is \(value.utf8.count) bytes; the limit is \(maxBytes)")
        }
        return value
    }

    private static func queryVersion(_ request: HTTPRequest, _ name: String) throws(APIError) -> Int64? {
        guard let text = try queryText(request, name, maxBytes: 18) else { return nil }
        guard let value = Int64(text), value > 0, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            throw .invalidRequest("\(name) must be a whole number above 0")
        }
        return value
    }
}
