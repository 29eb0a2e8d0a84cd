import Foundation
import Tally

/// The delivery observer named by `TALLY_DELIVERY_PAUSE`: at that step it prints
/// `PAUSED <step> <transactionId>` on standard output (written straight to the file descriptor, unbuffered)
/// and then blocks forever, waiting to be killed.
struct PauseObserver: Sendable {
    /// The step to pause at; nil to run through.
    var step: DeliveryStep?

    /// Reads `TALLY_DELIVERY_PAUSE`; an unknown step name is a usage error.
    init(environment: [String: String]) throws(HarnessError) {
        guard let name = environment["TALLY_DELIVERY_PAUSE"], !name.isEmpty else {
            step = nil
            return
        }
        guard let step = DeliveryStep(rawValue: name) else {
            let names = DeliveryStep.allCases.map(\.rawValue).joined(separator: ", ")
            throw HarnessError(usage: "TALLY_DELIVERY_PAUSE='\(name)' is not a delivery step; use one of \(names)")
        }
        self.step = step
    }

    /// The engine's observer, or nil when not pausing.
    var observer: DeliveryObserver? {
        guard let pauseStep = step else { return nil }
        return { step, transactionId in
            guard step == pauseStep else { return }
            FileHandle.standardOutput.write(Data("PAUSED \(step.rawValue) \(transactionId)\n".utf8))
            while true {
                try? await Task.sleep(nanoseconds: 3_600_000_000_000)
            }
        }
    }
}
