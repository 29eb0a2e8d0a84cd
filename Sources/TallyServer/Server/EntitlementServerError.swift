import TallyHTTP
import TallyStorage

/// Why an ``EntitlementServer`` could not start.
public enum EntitlementServerError: Error, Sendable, CustomStringConvertible {
    /// The configuration cannot work (verifiers could not be built).
    case configuration(ServerConfigurationError)
    /// The database could not be opened, created or migrated.
    case store(CustomerStoreError)
    /// The HTTP server could not listen.
    case http(HTTPServerError)
    /// The configured sandbox clock (`clock.sandboxURL`) cannot be read.
    case clock(String)

    /// Whether the problem is in the configuration or the command line (exit 2) rather than the system (exit 1).
    public var isConfigurationProblem: Bool {
        switch self {
        case .configuration: true
        case .store, .clock: false
        case .http(let error):
            if case .invalidAddress = error { true } else if case .invalidConfiguration = error { true } else { false }
        }
    }

    /// What went wrong and what to do.
    public var description: String {
        switch self {
        case .configuration(let error): error.description
        case .store(let error): error.message
        case .http(let error): error.description
        case .clock(let message): message
        }
    }
}
