import Dispatch
import Foundation

/// Blocks until one of the given signals arrives, delivered through DispatchSource (not a C handler),
/// so the process can stop cleanly.
final class SignalWait {
    private let sources: [any DispatchSourceSignal]
    private let arrived = DispatchSemaphore(value: 0)

    /// Starts listening for `signals`; their default action (terminate) is turned off.
    init(signals: [Int32]) {
        let queue = DispatchQueue(label: "tally.serve.signals")
        let arrived = self.arrived
        sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { arrived.signal() }
            source.resume()
            return source
        }
    }

    /// Waits for the first signal.
    func wait() {
        arrived.wait()
        for source in sources { source.cancel() }
    }
}
