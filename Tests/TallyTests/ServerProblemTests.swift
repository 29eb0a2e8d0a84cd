import Testing
@testable import Tally

/// How the engine names an answer the server did not take (``ServerProblem``): a 429 with what its
/// `Retry-After` says, read strictly, everything else a server error.
@Suite struct ServerProblemTests {
    @Test func a429IsRateLimitedWithItsRetryAfterAndOtherStatusesAreServerErrors() {
        #expect(ServerProblem.answer(status: 429, retryAfter: "30", code: "rate_limited", message: "slow down")
                == .rateLimited(retryAfter: 30, message: "slow down"))
        #expect(ServerProblem.answer(status: 503, retryAfter: "30", code: "unavailable", message: "busy")
                == .serverError(status: 503, code: "unavailable", message: "busy"))
        let text = ServerProblem.rateLimited(retryAfter: 30, message: "slow down").description
        #expect(text.contains("rate-limited") && text.contains("retry after 30 s") && !text.contains("reached"), "\(text)")
    }

    @Test(arguments: [("7", 7), (" 12\t", 12), ("0", 0), ("999999999", 999_999_999)])
    func retryAfterDeltaSecondsAreRead(_ text: String, _ seconds: Int) {
        #expect(ServerProblem.deltaSeconds(text) == seconds)
    }

    @Test(arguments: ["", " ", "-1", "1.5", "1e3", "9999999999", "Wed, 21 Oct 2026 07:28:00 GMT", "٣", "+5",
                      String(repeating: "9", count: 10_000)])
    func anythingElseInRetryAfterIsNone(_ text: String) {
        #expect(ServerProblem.deltaSeconds(text) == nil, "\(text.prefix(40))")
        #expect(ServerProblem.answer(status: 429, retryAfter: text, code: "rate_limited", message: "")
                == .rateLimited(retryAfter: nil, message: ""))
    }
}
