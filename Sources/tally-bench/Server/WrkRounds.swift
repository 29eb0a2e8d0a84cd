/// Several wrk rounds of one side of a comparison taken together (rounds of two sides alternate, so a change in
/// the machine's load falls on both alike): the rate is the requests over the rounds' time, the p50 the median
/// round's, the p99 the worst round's.
struct WrkRounds {
    var rate: Double, p50: Double, p99: Double, requests: Int, non2xx: Int, socketErrors: Int

    init(_ rounds: [WrkResult]) {
        let seconds = rounds.reduce(0) { $0 + Double($1.requests) / max($1.requestsPerSecond, 1e-9) }
        requests = rounds.reduce(0) { $0 + $1.requests }
        rate = seconds > 0 ? Double(requests) / seconds : 0
        let p50s = rounds.map(\.p50).sorted()
        p50 = p50s.isEmpty ? 0 : p50s[p50s.count / 2]
        p99 = rounds.map(\.p99).max() ?? 0
        non2xx = rounds.reduce(0) { $0 + $1.non2xx }
        socketErrors = rounds.reduce(0) { $0 + $1.socketErrors }
    }
}
