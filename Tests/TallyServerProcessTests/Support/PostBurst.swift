import Foundation

/// Posts pre-signed transactions from plain threads, one keep-alive connection each, recording every
/// transaction the server acknowledged with a 2xx; a thread stops at its first failure (the server died).
final class PostBurst: Sendable {
    /// One thread's work: a customer and the JWS to post, in order, with their transaction ids.
    struct Lane: Sendable {
        var appUserId: String
        var posts: [(transactionId: String, jws: String)]
    }

    /// Acknowledged transaction ids per customer.
    let acknowledged = Locked([String: [String]]())
    /// Replies that were neither 2xx, 503 (busy: nothing acknowledged) nor a dropped connection.
    let unexpected = Locked([String]())
    private let group = DispatchGroup()
    private let running: Locked<Int>

    /// Starts one thread per lane against `port` with `publicKey`.
    init(lanes: [Lane], port: Int, publicKey: String) {
        running = Locked(lanes.count)
        for lane in lanes {
            group.enter()
            let thread = Thread { [self] in
                defer {
                    running.withLock { $0 -= 1 }
                    group.leave()
                }
                run(lane, port: port, publicKey: publicKey)
            }
            thread.start()
        }
    }

    /// How many posts were acknowledged so far.
    var acknowledgedCount: Int { acknowledged.withLock { $0.values.reduce(0) { $0 + $1.count } } }

    /// Whether every thread has stopped.
    var isFinished: Bool { running.current == 0 }

    /// Waits until every thread has stopped.
    func finished() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            group.notify(queue: .global()) { continuation.resume() }
        }
    }

    private func run(_ lane: Lane, port: Int, publicKey: String) {
        guard let connection = try? RawConnection(port: port) else { return }
        let path = APIClient.customerPath(lane.appUserId) + "/transactions"
        for post in lane.posts {
            guard let body = try? APIClient.json(["signedTransaction": post.jws]),
                  let reply = try? connection.request("POST", path, key: publicKey, body: body) else { return }
            if (200..<300).contains(reply.status) {
                acknowledged.withLock { $0[lane.appUserId, default: []].append(post.transactionId) }
            } else if reply.status != 503 {
                unexpected.withLock { $0.append("\(lane.appUserId) \(post.transactionId): \(reply)") }
            }
        }
    }
}
