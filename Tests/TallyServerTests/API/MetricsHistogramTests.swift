import Testing
@testable import TallyServer

/// The latency histogram counts each request in its bucket (cumulative in the text), its sum and its count, for
/// requests recorded from many threads at once.
@Suite("Metrics: the latency histogram")
struct MetricsHistogramTests {
    @Test func bucketsSumAndCountAcrossThreads() async {
        let metrics = ServerMetrics()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<100 {
                        metrics.recordRequest(route: "/r", method: "GET", status: 200, seconds: 0.0003)
                        metrics.recordRequest(route: "/r", method: "GET", status: 200, seconds: 0.02)
                        metrics.recordRequest(route: "/r", method: "GET", status: 500, seconds: 9)
                    }
                }
            }
        }
        let text = metrics.prometheusText()
        #expect(text.contains(#"tally_http_request_duration_seconds_bucket{route="/r",le="0.0005"} 800"#))
        #expect(text.contains(#"tally_http_request_duration_seconds_bucket{route="/r",le="0.01"} 800"#))
        #expect(text.contains(#"tally_http_request_duration_seconds_bucket{route="/r",le="0.025"} 1600"#))
        #expect(text.contains(#"tally_http_request_duration_seconds_bucket{route="/r",le="5.0"} 1600"#))
        #expect(text.contains(#"tally_http_request_duration_seconds_bucket{route="/r",le="+Inf"} 2400"#))
        #expect(text.contains(#"tally_http_request_duration_seconds_count{route="/r"} 2400"#))
        #expect(text.contains(#"tally_http_requests_total{route="/r",method="GET",status="500"} 800"#))
        let sum = text.split(separator: "\n").first { $0.hasPrefix(#"tally_http_request_duration_seconds_sum{route="/r"}"#) }
        let value = sum.flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0
        #expect(abs(value - (800 * 0.0003 + 800 * 0.02 + 800 * 9)) < 1e-6)
    }
}
