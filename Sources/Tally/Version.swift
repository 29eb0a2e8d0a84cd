/// This release of Tally, as semantic versioning spells it (`MAJOR.MINOR.PATCH`): what `tally --version` prints
/// and what CHANGELOG.md's newest section names. Before 1.0 a minor release may change what 1.0 will promise to
/// keep (README.md, *Compatibility*).
///
/// A module-level constant, not a member of a type named `Tally`: a public type `Tally` inside module `Tally`
/// would shadow the module's name, and an app's `Tally.Store` would look for `Store` inside that type and fail.
/// As a top-level name, `Tally.version` reads the same and `Tally.Store` keeps working (``Store``).
public let version = "0.9.0"
