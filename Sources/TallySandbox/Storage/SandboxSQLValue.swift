/// A value bound to a parameter of a ``SandboxStatement``.
enum SandboxSQLValue {
    /// SQL NULL.
    case null
    /// A 64-bit integer.
    case integer(Int64)
    /// UTF-8 text (JSON bodies, ids, names).
    case text(String)
}
