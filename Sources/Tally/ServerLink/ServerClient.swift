import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TallyCore
import TallyLocking


/// The two calls of docs/server.md the app makes with its public key, over URLSession.
///
/// The session is never invalidated (FoundationNetworking traps on a request made after invalidation): one
/// session per store.
struct ServerClient: Sendable {
    let link: ServerLink
    private let session: URLSession
    /// The furthest `Tally-Read-After` a write's answer carried, sent back on every read (shared by the copies).
    private let readAfter: ReadAfterMemory

    /// The same session for another link (a switched customer): a session is never invalidated, so one per store.
    private init(link: ServerLink, session: URLSession, readAfter: ReadAfterMemory) {
        self.link = link
        self.session = session
        self.readAfter = readAfter
    }

    /// This client for `link`, sharing its session and its read-after token.
    func with(_ link: ServerLink) -> ServerClient {
        ServerClient(link: link, session: session, readAfter: readAfter)
    }

    /// This client for another customer of the same server (the same session); itself for its own customer.
    func `for`(appUserId: String) -> ServerClient {
        guard !link.appUserId.hasSameBytes(as: appUserId) else { return self }
        var other = link
        other.appUserId = appUserId
        return with(other)
    }

    init(link: ServerLink) {
        self.link = link
        let configuration = URLSessionConfiguration.ephemeral
        let seconds = link.requestTimeout
        configuration.timeoutIntervalForRequest = seconds
        configuration.timeoutIntervalForResource = seconds
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration)
        readAfter = ReadAfterMemory()
    }

    /// `POST /v1/customers/{appUserId}/transactions` with `{"signedTransaction": jws}`.
    func post(signedTransaction jws: String) async -> ServerAnswer {
        let body: Data
        do { body = try JSONEncoder().encode(["signedTransaction": jws]) } catch {
            return .unavailable(.unreachable("cannot encode the post: \(error)"))
        }
        switch await send("POST", path: "transactions", body: body) {
        case .failure(let reason):
            return .unavailable(.unreachable(reason.description))
        case .success(let received):
            let (status, data, retryAfter) = (received.status, received.answer.body, received.retryAfter)
            if (200..<300).contains(status) {
                if let refusal = refusal(of: received) {
                    return .unverified("the server's \(status) answer is not believed: \(refusal)")
                }
                do {
                    return .accepted(try ServerCustomer.state(fromResponse: data), ServerCustomer.outcome(in: data),
                                     received.answer)
                } catch {
                    // Stored (2xx) but unreadable: the post is done; the state is read again at the next refresh.
                    return .unavailable(.serverError(status: status, code: "undecodable",
                                                     message: "the server's \(status) answer does not decode: \(error)"))
                }
            }
            let failure = ServerCustomer.error(in: data)
            if status == 422 || status == 409 {
                return .refused(status: status, code: failure.code, message: failure.message)
            }
            return .unavailable(.answer(status: status, retryAfter: retryAfter, code: failure.code, message: failure.message))
        }
    }

    /// `GET /v1/customers/{appUserId}`: the customer's state and the answer it came in, or why it could not be
    /// read (or believed).
    func customer() async -> Result<(CustomerState, SignedAnswer), ServerUnreachable> {
        switch await send("GET", path: nil, body: nil) {
        case .failure(let reason):
            return .failure(ServerUnreachable(problem: .unreachable(reason.description)))
        case .success(let received):
            let (status, data) = (received.status, received.answer.body)
            guard status == 200 else {
                let failure = ServerCustomer.error(in: data)
                return .failure(ServerUnreachable(problem: .answer(status: status, retryAfter: received.retryAfter,
                                                                   code: failure.code, message: failure.message)))
            }
            if let refusal = refusal(of: received) {
                return .failure(ServerUnreachable(
                    problem: .serverError(status: status, code: "unverified_answer",
                                          message: "the server's customer is not believed: \(refusal)"),
                    unverified: true))
            }
            do { return .success((try ServerCustomer.state(fromResponse: data), received.answer)) } catch {
                return .failure(ServerUnreachable(problem: .serverError(
                    status: status, code: "undecodable", message: "the server's customer does not decode: \(error)")))
            }
        }
    }

    /// Why a 2xx answer is not believed: with a pinned ``ServerLink/serverPublicKey``, unless its signature
    /// verifies for this request's nonce and this customer; nil when it does (or no key is pinned).
    private func refusal(of received: Received) -> AnswerVerifier.Refusal? {
        guard let key = link.serverPublicKey else { return nil }
        do {
            _ = try AnswerVerifier(publicKey: key).verify(received.answer, nonce: received.nonce,
                                                          appUserId: link.appUserId)
            return nil
        } catch {
            return error
        }
    }

    /// `POST /v1/customers/{appUserId}/account-token`: the token the server minted for the customer, or why it
    /// could not be had (the server unreachable, or a refusal: no proof that this app speaks for the customer).
    func accountToken() async -> Result<UUID, ServerUnreachable> {
        switch await send("POST", path: "account-token", body: nil) {
        case .failure(let reason):
            return .failure(ServerUnreachable(problem: .unreachable(reason.description)))
        case .success(let received):
            let data = received.answer.body
            guard received.status == 200 else {
                let failure = ServerCustomer.error(in: data)
                return .failure(ServerUnreachable(problem: .answer(status: received.status,
                                                                   retryAfter: received.retryAfter,
                                                                   code: failure.code, message: failure.message)))
            }
            guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let text = object["appAccountToken"] as? String, let token = UUID(uuidString: text) else {
                return .failure(ServerUnreachable(problem: .serverError(
                    status: received.status, code: "undecodable", message: "the server's account token does not decode")))
            }
            return .success(token)
        }
    }

    /// A `POST` of a JSON body for the link's customer that answers no state (`aliases`, `attributes`): the answer's
    /// body on a 2xx; a 4xx other than 429 is a refusal for good; anything else (no answer, 429, 5xx) is unavailable.
    func postWithoutState(_ path: String, body: Data) async -> AnswerWithoutState {
        switch await send("POST", path: path, body: body) {
        case .failure(let reason):
            return .unavailable(.unreachable(reason.description))
        case .success(let received):
            let status = received.status
            if (200..<300).contains(status) { return .accepted(received.answer.body) }
            let failure = ServerCustomer.error(in: received.answer.body)
            if (400..<500).contains(status), status != 429, status != 408 {
                return .refused(status: status, code: failure.code, message: failure.message)
            }
            return .unavailable(.answer(status: status, retryAfter: received.retryAfter, code: failure.code,
                                        message: failure.message))
        }
    }

    /// The customer's URL: `{url}/v1/customers/{appUserId percent-encoded}[/path]` (``CustomerRoute``).
    func customerURL(_ path: String?) -> URL? {
        CustomerRoute.url(server: link.url, appUserId: link.appUserId, path: path.map { [$0] } ?? [])
    }

    /// An HTTP answer: its status, its body and signature, its `Retry-After` and `ETag` headers, and the nonce the
    /// request sent.
    struct Received: Sendable {
        var status: Int
        var answer: SignedAnswer
        var retryAfter: String?
        var nonce: String
        var etag: String? = nil
    }

    /// Sends one request to the customer's route `path`.
    private func send(_ method: String, path: String?, body: Data?) async -> Result<Received, SendFailure> {
        guard let url = customerURL(path) else {
            return .failure(SendFailure("cannot form a URL from \(link.url) and appUserId"))
        }
        return await send(method, url: url, body: body)
    }

    /// Sends one request with the public key, the customer's token (when the link has a provider), a fresh
    /// ``AnswerSignature/nonceHeaderName`` (128 random bits, which the server signs into its answer) and `headers`.
    /// A `GET` carries the furthest `Tally-Read-After` an answer gave (``ReadAfter``), so a server reading from
    /// replicas answers it with every write this client made; an answer carrying one moves it forward.
    func send(_ method: String, url: URL, body: Data?,
              headers: [String: String] = [:]) async -> Result<Received, SendFailure> {
        var request = URLRequest(url: url)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if method == "GET", let token = readAfter.token { request.setValue(token.token, forHTTPHeaderField: ReadAfter.headerName) }
        let readAfter = self.readAfter
        request.httpMethod = method
        request.setValue("Bearer \(link.publicKey)", forHTTPHeaderField: "Authorization")
        if let provider = link.customerToken {
            let token: String?
            do { token = try await provider(link.appUserId) } catch {
                return .failure(SendFailure("\(method) \(url.path): the app's customer-token provider failed: \(error)"))
            }
            if let token { request.setValue(token, forHTTPHeaderField: Self.customerTokenHeader) }
        }
        let nonce = AnswerSignature.newNonce()
        request.setValue(nonce, forHTTPHeaderField: AnswerSignature.nonceHeaderName)
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        // The completion-handler API, not `data(for:)`: a cancelled Swift task cancels its URLSessionTask, and
        // FoundationNetworking traps when that cancel races the task's completion (TaskRegistry). A request once
        // sent runs to its end (at most `requestTimeout`); the answer is what decides whether to finish.
        let session = self.session
        return await withCheckedContinuation { continuation in
            session.dataTask(with: request) { data, response, error in
                if let error {
                    continuation.resume(returning: .failure(
                        SendFailure("\(method) \(url.path) failed: \(error.localizedDescription)")))
                } else if let http = response as? HTTPURLResponse {
                    if let value = http.value(forHTTPHeaderField: ReadAfter.headerName), let token = ReadAfter(token: value) {
                        readAfter.note(token)
                    }
                    let signature = http.value(forHTTPHeaderField: AnswerSignature.headerName)
                    continuation.resume(returning: .success(Received(
                        status: http.statusCode, answer: SignedAnswer(body: data ?? Data(), signature: signature),
                        retryAfter: http.value(forHTTPHeaderField: "Retry-After"), nonce: nonce,
                        etag: http.value(forHTTPHeaderField: "ETag"))))
                } else {
                    continuation.resume(returning: .failure(SendFailure("\(method) \(url.path): not an HTTP answer")))
                }
            }.resume()
        }
    }
}

extension ServerClient {
    /// The header a customer token travels in (the server's `customers.requireToken`).
    static let customerTokenHeader = "Tally-Customer-Token"
}

/// The furthest `Tally-Read-After` token the server's answers carried (``ReadAfter``): never moves back, so a
/// read after two writes whose answers arrived out of order still waits for both.
final class ReadAfterMemory: Sendable {
    private let furthest = Locked<ReadAfter?>(nil)

    /// The token to send on reads; nil before any write answered with one.
    var token: ReadAfter? { furthest.withLock { $0 } }

    /// Keeps `token` when it is further than the one kept.
    func note(_ token: ReadAfter) {
        furthest.withLock { $0 = max($0 ?? token, token) }
    }
}

/// Why a request got no usable answer.
struct SendFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Why the server's state could not be read (the store then shows its local file).
struct ServerUnreachable: Error, Sendable {
    var problem: ServerProblem
    /// Whether the server answered but its answer's signature did not verify (``ServerLink/serverPublicKey``).
    var unverified = false
}

/// The answer to ``ServerClient/postWithoutState(_:body:)``.
enum AnswerWithoutState: Sendable {
    /// A 2xx, with its body.
    case accepted(Data)
    /// Refused for good (a 4xx other than 408 and 429).
    case refused(status: Int, code: String, message: String)
    /// No usable answer; the same request may succeed later.
    case unavailable(ServerProblem)
}
