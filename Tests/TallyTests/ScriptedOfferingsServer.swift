import Foundation
import TallyCore
import TallyHTTP
import TallyLocking

/// A scripted `GET /v1/offerings` on a real HTTP listener: answers the script's ``OfferingsAnswer`` with an `ETag`
/// of its bytes (304 on a matching `If-None-Match`), or a scripted failure; counts its 200s and 304s and keeps each
/// request. Every other route answers 404 (the store's customer reads then fall back to its file).
final class ScriptedOfferingsServer: Sendable {
    struct Script: Sendable {
        var answer = OfferingsAnswer(version: 1, current: "default", placement: nil, experiment: nil, offerings: [])
        /// Answered instead of the offerings when set: a status and a body.
        var failure: (status: Int, body: String)?
        /// Replaces the computed `ETag` when set.
        var etag: String?
        var requests: [HTTPRequest] = []
        var answered200 = 0
        var answered304 = 0
    }

    let script = Locked(Script())
    private let server: HTTPServer
    let url: URL

    init() throws {
        let script = self.script
        server = try HTTPServer(configuration: HTTPServer.Configuration(port: 0, threads: 2)) { request in
            Self.answer(request, script)
        }
        url = URL(string: "http://127.0.0.1:\(server.port)")!
    }

    /// Stops listening: from now on the server cannot be reached.
    func stop() { server.stop() }

    /// Changes the answer (a new document version).
    func set(_ answer: OfferingsAnswer) { script.withLock { $0.answer = answer } }

    var requests: [HTTPRequest] { script.withLock { $0.requests } }
    var counts: (ok: Int, notModified: Int) { script.withLock { ($0.answered200, $0.answered304) } }

    private static func answer(_ request: HTTPRequest, _ script: Locked<Script>) -> HTTPResponse {
        guard request.method == "GET", request.path == "/v1/offerings" else { return HTTPResponse(status: 404) }
        return script.withLock { script in
            script.requests.append(request)
            if let failure = script.failure {
                return HTTPResponse(status: failure.status, body: Array(failure.body.utf8))
            }
            let body = script.answer.jsonBytes()
            let etag = script.etag ?? "\"\(Self.hex(body))\""
            if request.header("If-None-Match") == etag {
                script.answered304 += 1
                return HTTPResponse(status: 304, headers: [.init("ETag", etag)])
            }
            script.answered200 += 1
            return HTTPResponse(status: 200, headers: [.init("ETag", etag), .init("Content-Type", "application/json")],
                                body: body)
        }
    }

    /// A stable fingerprint of `bytes` (FNV-1a, 64 bits) in hex.
    private static func hex(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return String(hash, radix: 16)
    }
}

/// The answers the offerings tests script.
enum ShopOfferings {
    static func answer(version: Int64, current: String = "default", placement: String? = nil,
                       extra: [OfferingPackage] = []) -> OfferingsAnswer {
        OfferingsAnswer(version: version, current: current, placement: placement, experiment: nil, offerings: [
            Offering(id: "default", description: "Everything", metadata: .object(["title": .string("Go Pro")]),
                     packages: [OfferingPackage(id: "monthly", productId: Shop.proMonthly),
                                OfferingPackage(id: "lifetime", productId: Shop.premium)] + extra),
            Offering(id: "intro", description: "One subscription",
                     packages: [OfferingPackage(id: "monthly", productId: Shop.liteMonthly)]),
        ])
    }
}
