import Foundation
@testable import TallyServer
import TallyTesting

extension TestClock {
    /// The clock as the server takes it.
    var serverClock: ServerClock { ServerClock(now: { [self] in now }) }
}
