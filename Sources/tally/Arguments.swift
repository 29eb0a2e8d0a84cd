/// A command line split into positionals, `--name value` options and `--flag` switches.
/// Options may come in any order after the subcommand.
struct Arguments {
    private(set) var positionals: [String] = []
    private var options: [String: [String]] = [:]
    private var flags: Set<String> = []

    /// Parses `words`. `flags` names the options that take no value; every other `--name` takes one.
    /// When `options` is given, any `--name` outside `flags` and `options` is an "unknown option" error.
    init(_ words: some Sequence<String>, flags knownFlags: Set<String>,
         options knownOptions: Set<String>? = nil) throws(UsageError) {
        var iterator = words.makeIterator()
        while let word = iterator.next() {
            if word == "-" || !word.hasPrefix("-") {
                positionals.append(word)
                continue
            }
            var name = String(word.drop(while: { $0 == "-" }))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if name.isEmpty { throw UsageError("'\(word)' is not an option") }
            if let knownOptions, !knownOptions.contains(name), !knownFlags.contains(name) {
                throw UsageError("unknown option --\(name)")
            }
            if knownFlags.contains(name) {
                flags.insert(name)
            } else if let value = inlineValue ?? iterator.next() {
                options[name, default: []].append(value)
            } else {
                throw UsageError("--\(name) needs a value")
            }
        }
    }

    /// Whether `--name` was given.
    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The last value of `--name`, if given.
    func value(_ name: String) -> String? { options[name]?.last }

    /// Every value of a repeatable `--name`, in order.
    func values(_ name: String) -> [String] { options[name] ?? [] }

    /// Names of options given that are not in `allowed` (for "unknown option" errors).
    func unknownOptions(allowed: Set<String>) -> [String] {
        (Array(options.keys) + Array(flags)).filter { !allowed.contains($0) }.sorted()
    }

    /// Throws a usage error if any option outside `allowed` was given.
    func requireOnly(_ allowed: Set<String>) throws(UsageError) {
        if let unknown = unknownOptions(allowed: allowed).first {
            throw UsageError("unknown option --\(unknown)")
        }
    }

    /// The positional at `index`, or a usage error naming what is missing.
    func positional(_ index: Int, _ what: String) throws(UsageError) -> String {
        guard index < positionals.count else { throw UsageError("missing \(what)") }
        return positionals[index]
    }
}

/// A usage mistake: bad options or arguments. Exit code 2.
struct UsageError: Error, CustomStringConvertible {
    var message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}

/// The exit codes every `tally` command uses.
enum ExitCode {
    /// Done.
    static let ok: Int32 = 0
    /// The operation was refused or failed (cancelled, declined, not allowed, verification failed).
    static let refused: Int32 = 1
    /// A usage error or bad input.
    static let usage: Int32 = 2
}
