/// What went wrong in the harness, with what to do about it.
struct HarnessError: Error, CustomStringConvertible {
    /// The message printed on standard error.
    var description: String
    /// 2 for a usage mistake, 1 for a failure while running.
    var exitStatus: Int32

    init(usage description: String) {
        self.description = description
        self.exitStatus = 2
    }

    init(_ description: String) {
        self.description = description
        self.exitStatus = 1
    }
}

extension Error {
    /// The process exit status for this error: a harness error's own, 1 for any other.
    var exitStatus: Int32 { (self as? HarnessError)?.exitStatus ?? 1 }
}
