import Foundation
import TallyCore

/// What `GET /v1/offerings` gave.
enum OfferingsFetch: Sendable {
    /// A `200`: the answer read, its body as received and its `ETag` (nil when none usable).
    case answer(OfferingsAnswer, body: String, etag: String?)
    /// A `304` on the `If-None-Match` sent: the kept answer is current.
    case notModified
    /// No usable answer.
    case failed(ServerProblem)
}

extension ServerClient {
    /// The largest offerings answer read, in bytes; a bigger one is refused as an answer that does not decode.
    static let maxOfferingsBytes = 1 << 20
    /// The longest `ETag` kept and sent back; a longer one (or one with bytes outside visible ASCII) is not kept.
    static let maxETagBytes = 256

    /// `GET /v1/offerings?placement=…&appUserId=…&storefront=…&appVersion=…` with `If-None-Match: etag` when one
    /// is kept (docs/server.md, *Offerings*).
    func offerings(placement: String?, storefront: String?, appVersion: String?, etag: String?) async -> OfferingsFetch {
        guard let url = offeringsURL(placement: placement, storefront: storefront, appVersion: appVersion) else {
            return .failed(.unreachable("cannot form the offerings URL from \(link.url)"))
        }
        let headers = etag.map { ["If-None-Match": $0] } ?? [:]
        switch await send("GET", url: url, body: nil, headers: headers) {
        case .failure(let reason):
            return .failed(.unreachable(reason.description))
        case .success(let received):
            let data = received.answer.body
            if received.status == 304, etag != nil { return .notModified }
            guard received.status == 200 else {
                let failure = ServerCustomer.error(in: data)
                return .failed(.answer(status: received.status, retryAfter: received.retryAfter,
                                       code: failure.code, message: failure.message))
            }
            guard data.count <= Self.maxOfferingsBytes else {
                return .failed(.serverError(status: 200, code: "undecodable", message: "the offerings answer is "
                    + "\(data.count) bytes, more than the \(Self.maxOfferingsBytes) this engine reads"))
            }
            do {
                let answer = try OfferingsAnswer(jsonData: data)
                return .answer(answer, body: String(decoding: data, as: UTF8.self), etag: Self.usableETag(received.etag))
            } catch {
                return .failed(.serverError(status: 200, code: "undecodable",
                                            message: "the offerings answer does not decode: \(error.message)"))
            }
        }
    }

    /// The offerings URL: `{url}/v1/offerings` with the query items given (percent-encoded); the customer is the
    /// link's.
    func offeringsURL(placement: String?, storefront: String?, appVersion: String?) -> URL? {
        guard let url = CustomerRoute.url(server: link.url, route: "/v1/offerings"),
              var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
        let items: [(String, String?)] = [("placement", placement), ("appUserId", link.appUserId),
                                          ("storefront", storefront), ("appVersion", appVersion)]
        components.queryItems = items.compactMap { name, value in value.map { URLQueryItem(name: name, value: $0) } }
        // `+` would read as a space on the server; URLComponents leaves it as is.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return components.url
    }

    /// `etag` when it can be sent back as it came: 1 to ``maxETagBytes`` bytes of visible ASCII.
    static func usableETag(_ etag: String?) -> String? {
        guard let etag, !etag.utf8.isEmpty, etag.utf8.count <= maxETagBytes,
              etag.utf8.allSatisfy({ (0x21...0x7e).contains($0) }) else { return nil }
        return etag
    }
}
