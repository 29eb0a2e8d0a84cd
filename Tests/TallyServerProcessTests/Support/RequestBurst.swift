import Foundation

/// POSTs prepared bodies from plain threads, one keep-alive connection each, recording the id of every
/// request the server acknowledged with a 2xx; a thread stops at its first failure (the server died).
final class RequestBurst: Sendable {
    /// One thread's work: a customer, the route under it, and the bodies to post in order, each with an id.
    struct Lane: Sendable {
        var appUserId: String
        /// The path after `/v1/customers/{appUserId}`: `/transactions`, `/currencies/coins/spend`.
        var route: String
        var requests: [(id: String, body: Data)]
        /// A whole path used instead of `/v1/customers/{appUserId}` + ``route`` (the notification route).
        var absolutePath: String? = nil

        /// Posts of signed transactions, identified by transaction id.
        static func transactions(_ appUserId: String, _ posts: [(transactionId: String, jws: String)]) throws -> Lane {
            Lane(appUserId: appUserId, route: "/transactions",
                 requests: try posts.map { ($0.transactionId, try APIClient.json(["signedTransaction": $0.jws])) })
        }

        /// App Store Server Notifications posted to `/v1/notifications/apple`, identified by notificationUUID;
        /// `label` names the lane in the acknowledged map.
        static func notifications(_ label: String, _ items: [(uuid: String, signedPayload: String)]) throws -> Lane {
            Lane(appUserId: label, route: "",
                 requests: try items.map { ($0.uuid, try APIClient.json(["signedPayload": $0.signedPayload])) },
                 absolutePath: "/v1/notifications/apple")
        }

        /// Spends of `amount` coins, identified by spend id.
        static func spends(_ appUserId: String, ids: [String], amount: Int = 1) throws -> Lane {
            Lane(appUserId: appUserId, route: "/currencies/coins/spend",
                 requests: try ids.map { ($0, try APIClient.json(["amount": amount, "id": $0])) })
        }
    }

    /// Acknowledged request ids per customer.
    let acknowledged = Locked([String: [String]]())
    /// Replies that were neither 2xx, 503 (busy: nothing acknowledged) nor a dropped connection.
    let unexpected = Locked([String]())
    private let group = DispatchGroup()
    private let running: Locked<Int>

    /// Starts one thread per lane against `port`, authorised with `key`.
    init(lanes: [Lane], port: Int, key: String) {
        running = Locked(lanes.count)
        for lane in lanes {
            group.enter()
            let thread = Thread { [self] in
                defer {
                    running.withLock { $0 -= 1 }
                    group.leave()
                }
                run(lane, port: port, key: key)
            }
            thread.start()
        }
    }

    /// How many requests were acknowledged so far.
    var acknowledgedCount: Int { acknowledged.withLock { $0.values.reduce(0) { $0 + $1.count } } }

    /// Whether every thread has stopped.
    var isFinished: Bool { running.current == 0 }

    /// Waits until every thread has stopped.
    func finished() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            group.notify(queue: .global()) { continuation.resume() }
        }
    }

    /// Waits until `count` requests are acknowledged or every thread has stopped.
    func waitForAcknowledged(_ count: Int) async throws {
        while acknowledgedCount < count && !isFinished { try await Task.sleep(nanoseconds: 2_000_000) }
    }

    private func run(_ lane: Lane, port: Int, key: String) {
        guard let connection = try? RawConnection(port: port) else { return }
        let path = lane.absolutePath ?? APIClient.customerPath(lane.appUserId) + lane.route
        for request in lane.requests {
            guard let reply = try? connection.request("POST", path, key: key, body: request.body) else { return }
            if (200..<300).contains(reply.status) {
                acknowledged.withLock { $0[lane.appUserId, default: []].append(request.id) }
            } else if reply.status != 503 {
                unexpected.withLock { $0.append("\(lane.appUserId) \(request.id): \(reply)") }
            }
        }
    }
}
