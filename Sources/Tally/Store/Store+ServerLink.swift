import Foundation
import TallyCore


extension Store {
    /// Posts a written transaction to the server, when there is a link. Returns whether it may be finished: true
    /// without a link, after a 2xx (the server's state is kept) and after a final refusal (reported); false while
    /// the server cannot take it — it is then kept in ``pendingPosts`` and posted again with back-off.
    func posted(_ post: PendingPost) async -> Bool {
        guard let current = server else { return true }
        // Closed: no request (the session is ending); the transaction stays unfinished for the next launch.
        guard !isClosed else { return false }
        let id = post.transactionId
        // A purchase of a customer switched away from is posted for that customer, never for the one now.
        let server = current.for(appUserId: post.appUserId ?? current.link.appUserId)
        let customerId = server.link.appUserId
        switch await server.post(signedTransaction: post.jwsRepresentation) {
        case .accepted(let customer, _, let answer):
            pendingPosts.removeAll { $0.transactionId.hasSameBytes(as: id) }
            adoptServerState(customer, answer: answer, of: customerId)
            await pause(at: .posted, id)
            return true
        case .refused(let status, let code, let message):
            pendingPosts.removeAll { $0.transactionId.hasSameBytes(as: id) }
            if isCurrentCustomer(customerId) { serverProblem = nil }
            report(StoreDiagnostic(.serverRefused, "the server refused transaction \(id) (\(status) \(code): "
                + "\(message)); it was finished with the store and is not posted again"))
            emit([.serverRefused(transactionId: id, status: status, code: code, message: message)])
            await pause(at: .posted, id)
            return true
        case .unavailable(let reason):
            if isCurrentCustomer(customerId) { serverProblem = reason }
            return keptForRetry(post, of: customerId, .serverUnavailable, "transaction \(id) could not be posted to "
                + "the server (\(reason)); it stays unfinished and is posted again with back-off")
        case .unverified(let reason):
            return keptForRetry(post, of: customerId, .serverAnswerUnverified, "transaction \(id) was posted but "
                + "\(reason); it stays unfinished and is posted again with back-off")
        }
    }

    /// Keeps `post` in ``pendingPosts`` (reported the first time) and starts the back-off; returns false (not
    /// to be finished).
    private func keptForRetry(_ post: PendingPost, of customerId: String, _ kind: StoreDiagnostic.Kind,
                              _ message: String) -> Bool {
        if !pendingPosts.contains(where: { $0.transactionId.hasSameBytes(as: post.transactionId) }) {
            pendingPosts.append(post)
            report(StoreDiagnostic(kind, message))
        }
        if isCurrentCustomer(customerId) { stateSource = offlineSource }
        scheduleRetry()
        return false
    }

    /// Posts every transaction in ``pendingPosts``, oldest first, finishing each the server takes; stops at the
    /// first the server cannot take. Returns true when none waits any more (then the retry loop ends).
    func postPending() async -> Bool {
        while !isClosed, let next = pendingPosts.first {
            prepareForChange()
            guard await posted(next) else { break }
            // A restored transaction (posted again after a switch) was finished already.
            if !record.finished.contains(next.transactionId) { await finish(next.transactionId) }
            emit(stateChangeEvents())
        }
        guard pendingPosts.isEmpty || isClosed else { return false }
        retryTask = nil
        return true
    }

    /// Starts the back-off loop unless one runs: it waits ``RetryPolicy/delay(attempt:)`` — at least a 429's
    /// `Retry-After`, never more than ``RetryPolicy/maxDelay`` —, posts what waits, and stops once nothing does
    /// (or the store closes).
    func scheduleRetry() {
        guard retryTask == nil, !isClosed, let policy = serverLink?.retry else { return }
        retryTask = Task { [weak self] in
            var attempt = 0
            while !Task.isCancelled {
                let asked = await self?.retryAfter ?? 0
                let delay = max(policy.delay(attempt: attempt), min(asked, policy.maxDelay))
                do { try await policy.sleep(delay) } catch { return }
                guard let self, !Task.isCancelled else { return }
                if await self.postPending() { return }
                attempt += 1
            }
        }
    }

    /// The seconds a 429 asked to wait (its `Retry-After`); 0 when the last problem is no rate limit.
    var retryAfter: TimeInterval {
        guard case .rateLimited(let seconds?, _) = serverProblem else { return 0 }
        return TimeInterval(seconds)
    }

    /// Reads the server's customer state; on failure the state falls back to the customer file.
    func readServerState() async {
        guard let server, !isClosed else { return }
        let customerId = server.link.appUserId
        switch await server.customer() {
        case .success(let (customer, answer)):
            adoptServerState(customer, answer: answer, of: customerId)
        case .failure(let failure):
            if failure.unverified {
                report(StoreDiagnostic(.serverAnswerUnverified, "\(failure.problem); the state shown is the last one "
                    + "believed, until the server answers with a signature that verifies"))
            }
            guard isCurrentCustomer(customerId) else { return }
            stateSource = offlineSource
            serverProblem = failure.problem
        }
    }

    /// Whether `appUserId` (the customer a request was made for, before it suspended) is the link's customer
    /// now, compared as bytes: an answer for a customer switched away from meanwhile is not this one's.
    func isCurrentCustomer(_ appUserId: String) -> Bool {
        serverLink?.appUserId.hasSameBytes(as: appUserId) ?? false
    }

    /// Keeps a state the server answered for `appUserId` (in memory and in `server-state.json`) and shows it —
    /// with what waits to be posted added (``offlineState(from:)``, ``StateSource/savedServerState``) while
    /// something does. An answer for another customer than the link's now (it landed after a
    /// ``switchCustomer(to:appAccountToken:)``) is dropped: it is neither shown nor saved as this customer's.
    /// `answer` (its body and signature) is saved with it, so the signature is checked again at each load.
    func adoptServerState(_ customer: CustomerState, answer: SignedAnswer, of appUserId: String) {
        guard isCurrentCustomer(appUserId) else { return }
        serverProblem = nil
        serverState = customer
        let now = clock.now()
        serverStateDate = now
        stateSource = pendingPosts.isEmpty ? .server : .savedServerState
        guard let link = serverLink else { return }
        do {
            try SavedServerState(server: link.url, appUserId: link.appUserId, savedAt: now, state: customer,
                                 answer: answer).write(in: directory)
        } catch {
            report(StoreDiagnostic(.savedServerStateUnusable, "the server's state could not be saved for offline "
                + "use (\(error.message)); it is saved again at the server's next answer"))
        }
    }

    /// Where the state comes from while the server cannot be reached: the server's last state when one is kept
    /// for this customer (with what waits to be posted added), else the customer file.
    var offlineSource: StateSource {
        serverState != nil ? .savedServerState : .localCache
    }

    /// Reads `server-state.json` for the link's customer at launch (or after a switch): shown until the server
    /// answers, if it cannot be reached.
    func loadSavedServerState() {
        serverState = nil
        serverStateDate = nil
        loadMintedAccountToken()
        guard let link = serverLink else { return }
        switch SavedServerState.read(in: directory, from: link.url, for: link.appUserId,
                                     verifier: link.serverPublicKey.map(AnswerVerifier.init(publicKey:))) {
        case .success(let saved)?:
            serverState = saved.state
            serverStateDate = saved.savedAt
            stateSource = offlineSource
        case .failure(let problem)?:
            report(StoreDiagnostic(problem.unverified ? .savedServerStateUnverified : .savedServerStateUnusable,
                                   problem.message))
        case nil:
            break
        }
    }

    /// The error ``spend(_:of:id:)`` throws with a server link: spends need the secret key of the app's backend.
    func spendOnAppBackend(_ currency: String, id: String) -> StoreError {
        StoreError(.spendOnAppBackend, "spend '\(id)' of \(currency): with a server link, spends are made by the "
            + "app's backend with the server's secret key — POST /v1/customers/{appUserId}/currencies/\(currency)/spend "
            + "{\"amount\": …, \"id\": \"\(id)\"} (docs/server.md); the public key the app ships cannot spend. "
            + "Call your backend, then refresh()")
    }
}
