import Dispatch
import Foundation

/// Where `TALLY_WEBHOOK_PAUSE` makes the sender stop for good, so the crash tests can SIGKILL `tally serve`
/// there (as `TALLY_DELIVERY_PAUSE` does for the delivery harness). Never set in production.
enum WebhookPause: String, Sendable {
    /// Once committed events are claimed, before any of them is sent.
    case afterCommit = "after-commit"
    /// After a claimed attempt's POST was answered and before its result is stored.
    case duringSend = "during-send"

    /// The pause `TALLY_WEBHOOK_PAUSE` names; nil when unset or unknown.
    static var configured: WebhookPause? {
        ProcessInfo.processInfo.environment["TALLY_WEBHOOK_PAUSE"].flatMap(WebhookPause.init(rawValue:))
    }

    /// Says so on standard error, then blocks the calling thread until the process is killed.
    func hold(_ detail: String) -> Never {
        FileHandle.standardError.write(Data("tally serve: webhook paused \(rawValue) \(detail)\n".utf8))
        let never = DispatchSemaphore(value: 0)
        while true { never.wait() }
    }
}
