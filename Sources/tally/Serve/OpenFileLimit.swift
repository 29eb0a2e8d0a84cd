#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's limit on open files (RLIMIT_NOFILE), which bounds how many connections `tally serve` can hold.
enum OpenFileLimit {
    /// Descriptors kept beside the connections: the database and its readers, the log, the listening socket.
    static let reserve = 256

    /// Raises the soft limit so `connections` connections fit beside ``reserve``, up to the hard limit; returns a
    /// warning for the operator when even the hard limit is too low (connections past it are then refused).
    static func raise(toFit connections: Int) -> String? {
        let wanted = rlim_t(connections + reserve)
        var limit = rlimit()
        guard get(&limit) else { return nil }
        guard limit.rlim_cur < wanted else { return nil }
        let target = min(wanted, limit.rlim_max)
        if target > limit.rlim_cur {
            var raised = limit
            raised.rlim_cur = target
            if set(&raised) { limit = raised }
        }
        guard limit.rlim_cur < wanted else { return nil }
        return "the open-file limit (ulimit -n) is \(limit.rlim_cur), below the \(wanted) that limits.maxConnections "
            + "(\(connections)) needs; raise it, or lower limits.maxConnections"
    }

    private static func get(_ limit: inout rlimit) -> Bool {
        #if canImport(Glibc)
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0
        #else
        getrlimit(RLIMIT_NOFILE, &limit) == 0
        #endif
    }

    private static func set(_ limit: inout rlimit) -> Bool {
        #if canImport(Glibc)
        setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0
        #else
        setrlimit(RLIMIT_NOFILE, &limit) == 0
        #endif
    }
}
