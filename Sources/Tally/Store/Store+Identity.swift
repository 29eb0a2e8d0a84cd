import Foundation
import TallyCore


extension Store {
    /// The customer the store speaks for on the server; nil without a ``ServerLink``. Without an id in the link,
    /// an anonymous one the store made and keeps in its data directory (``isAnonymous``).
    public var appUserId: String? { serverLink?.appUserId }

    /// Whether the customer is anonymous (an id the store made, `AnonymousCustomerId`): purchases are
    /// the device's until ``logIn(_:)``. False without a server link.
    public var isAnonymous: Bool { serverLink.map { AnonymousCustomerId.isAnonymous($0.appUserId) } ?? false }

    /// Signs in as `appUserId`, the app's own id for the user. When the store speaks for an anonymous customer, the
    /// server first makes that id an alias of `appUserId` (`POST /v1/customers/{appUserId}/aliases`): what was
    /// bought before sign-up follows the customer under every ownership policy, and the anonymous id answers for
    /// it from then on. Then the store switches to it as ``switchCustomer(to:appAccountToken:)`` does (this
    /// device's purchases restored and posted for it) and keeps the id for the next launch.
    ///
    /// - Throws: ``StoreError`` — `invalidValue` without a server link, for an empty id or an anonymous one;
    ///   `serverRefused` (``StoreError/serverCode`` `alias_conflict`: the anonymous id is already another
    ///   customer's; `invalid_alias`; a customer-token refusal) and `networkError` (the server cannot be reached),
    ///   and nothing changes; then what ``switchCustomer(to:appAccountToken:)`` throws.
    @discardableResult
    public func logIn(_ appUserId: String) async throws(StoreError) -> CustomerSwitch {
        guard let link = serverLink, let client = server else {
            throw StoreError(.invalidValue, "logIn(_:) needs a server link: without one the store has no customer id")
        }
        guard !appUserId.isEmpty, !AnonymousCustomerId.isAnonymous(appUserId) else {
            throw StoreError(.invalidValue, "logIn(_:) takes the app's own id for the user, not an empty or "
                + "anonymous one ('\(AnonymousCustomerId.prefix)…'); logOut() makes a new anonymous id")
        }
        if link.appUserId.hasSameBytes(as: appUserId) {
            return CustomerSwitch(previousAppUserId: appUserId, appUserId: appUserId, posted: [], notPosted: [], refused: [])
        }
        try refuseSwitchWhileBusy(to: appUserId)
        if AnonymousCustomerId.isAnonymous(link.appUserId) {
            // Another switch waits meanwhile (no throw until the flag is down again).
            isSwitching = true
            // What the anonymous customer bought must reach the server first, so the alias moves it.
            if !pendingPosts.isEmpty { _ = await postPending() }
            let body = Data(#"{"alias":"\#(link.appUserId)"}"#.utf8)  // an anonymous id needs no JSON escaping
            let answer = await client.for(appUserId: appUserId).postWithoutState("aliases", body: body)
            isSwitching = false
            switch answer {
            case .accepted: break
            case .refused(let status, let code, let message):
                throw StoreError(serverRefused: status, code: code, message: message)
            case .unavailable(let problem):
                serverProblem = problem
                throw StoreError(.networkError, "logIn(\"\(appUserId)\"): the server cannot alias the anonymous "
                    + "customer now (\(problem)); nothing changed, try again once it answers")
            }
        }
        return try await switchCustomer(to: appUserId)
    }

    /// Signs out: from now on the store speaks for a new anonymous id (kept for the next launch). The previous
    /// customer's state is no longer shown nor kept on this device (`server-state.json` and its minted token are
    /// deleted), also when the server cannot be reached: until it answers, ``state`` shows only what this device
    /// buys from now on. Nothing is restored or posted for the new id. A purchase of the previous customer still
    /// waiting to be posted is posted for that customer. Emits ``StoreEvent/customerSwitched(_:)``.
    ///
    /// - Returns: the new anonymous id.
    /// - Throws: ``StoreError`` — `invalidValue` without a server link; `purchaseInProgress` while a purchase call or
    ///   a switch is under way; `storage` when the new id cannot be kept.
    @discardableResult
    public func logOut() async throws(StoreError) -> String {
        guard var link = serverLink, let client = server else {
            throw StoreError(.invalidValue, "logOut() needs a server link: without one the store has no customer id")
        }
        try refuseSwitchWhileBusy(to: "a new anonymous id")
        isSwitching = true
        defer { isSwitching = false }
        while !inFlight.isEmpty { await deliveryEnded() }
        if let openPurchase = openPurchases.first { throw purchaseInProgress(openPurchase, to: "a new anonymous id") }
        let previous = link.appUserId
        // Purchases of the previous customer waiting for the server stay that customer's.
        for index in pendingPosts.indices where pendingPosts[index].appUserId == nil {
            pendingPosts[index].appUserId = previous
        }
        let fresh = AnonymousCustomerId.make()
        try SavedCustomerId(appUserId: fresh).write(in: directory)
        prepareForChange()
        forgetSavedState(of: link)
        link.appUserId = fresh
        link.appAccountToken = nil
        serverLink = link
        server = client.with(link)
        serverProblem = nil
        loadSavedServerState()
        stateSource = .localCache
        await readServerState()
        emit([.customerSwitched(CustomerSwitch(previousAppUserId: previous, appUserId: fresh, posted: [],
                                               notPosted: [], refused: []))] + stateChangeEvents())
        return fresh
    }

    /// Sets attributes of the customer on the server (`POST /v1/customers/{appUserId}/attributes`; email, display
    /// name, push token, campaign), merged with those kept; an empty value is kept as empty. Checked here first
    /// against TallyCore's bounds (`CustomerAttributes`: keys of 1 to 64 bytes, values up to 4 KB, at
    /// most 100 keys per customer). Not queued: call it again when it failed for the network.
    ///
    /// - Throws: ``StoreError`` — `invalidValue` without a server link or for a key or value past a bound;
    ///   `serverRefused` (`invalid_attributes`: past 100 keys with those kept); `networkError`.
    public func setAttributes(_ attributes: [String: String]) async throws(StoreError) {
        guard let client = server else {
            throw StoreError(.invalidValue, "setAttributes(_:) needs a server link: attributes are kept by the server")
        }
        for key in attributes.keys.sorted() {
            if let problem = CustomerAttributes.problem(key: key, value: attributes[key]) {
                throw StoreError(.invalidValue, problem)
            }
        }
        let body: Data
        do { body = try JSONEncoder().encode(["attributes": attributes]) } catch {
            throw StoreError(.invalidValue, "the attributes cannot be encoded: \(error)")
        }
        switch await client.postWithoutState("attributes", body: body) {
        case .accepted: return
        case .refused(let status, let code, let message):
            throw StoreError(serverRefused: status, code: code, message: message)
        case .unavailable(let problem):
            throw StoreError(.networkError, "the server cannot take the attributes now (\(problem))")
        }
    }

    /// Deletes what this device keeps of `link`'s customer: the saved server state, the minted account token and
    /// the offerings answered for it (an experiment's arm is the customer's).
    private func forgetSavedState(of link: ServerLink) {
        var offerings = offeringsMemory.cache ?? OfferingsCache.read(in: directory).0
        offerings.entries.removeAll {
            $0.serverURL.hasSameBytes(as: link.url.absoluteString) && $0.appUserId.hasSameBytes(as: link.appUserId)
        }
        offeringsMemory.cache = offerings
        offeringsMemory.shown = [:]
        try? offerings.write(in: directory)  // a cache: an entry left is never shown for another customer
        serverState = nil
        serverStateDate = nil
        mintedAccountToken = nil
        try? FileManager.default.removeItem(atPath: SavedServerState.path(in: directory))
        var tokens = SavedAccountTokens.read(in: directory)
        tokens.remove(server: link.url, appUserId: link.appUserId)
        do { try tokens.write(in: directory) } catch {
            report(StoreDiagnostic(.savedServerStateUnusable, "the previous customer's account token could not be "
                + "deleted (\(error.message))"))
        }
    }

    /// Keeps the link's customer as the one to speak for at the next launch without an id in the link.
    func keepCustomerId(_ appUserId: String) {
        do { try SavedCustomerId(appUserId: appUserId).write(in: directory) } catch {
            report(StoreDiagnostic(.savedServerStateUnusable, "the customer id could not be kept for the next launch "
                + "(\(error.message))"))
        }
    }
}
