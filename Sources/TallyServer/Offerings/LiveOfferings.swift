import Foundation
import TallyCore
import TallyLocking
import TallyStorage

/// The offerings document a server runs with, kept current (docs/server.md, *Offerings*): read from the store at the
/// first request (seeding version 1 when the store holds none), then checked again when `offerings.refreshSeconds`
/// have passed, so a save on another server of one database is seen within that. A new version swaps the snapshot
/// and drops every cached state (``StateCache/invalidateAll()``); kept states carry the old fingerprint and are no
/// longer served.
final class LiveOfferings: Sendable {
    private struct State: Sendable {
        var snapshot: OfferingsSnapshot
        /// When the store was last asked (system uptime); nil: never successfully.
        var checkedAt: TimeInterval?
        /// Whether a request is asking the store now (others keep the current snapshot meanwhile).
        var refreshing = false
        /// Whether the last refresh of a loaded snapshot failed (logged once per run of failures).
        var failing = false
    }

    private let state: Locked<State>
    private let store: any OfferingsStore
    private let configuration: ServerConfiguration
    private let cache: StateCache
    private let clock: ServerClock
    private let uptime: @Sendable () -> TimeInterval
    private let log: @Sendable (String) -> Void

    /// Starts from the configuration's own mapping (and seed file) until the store is read.
    init(store: any OfferingsStore, configuration: ServerConfiguration, cache: StateCache, clock: ServerClock,
         uptime: @escaping @Sendable () -> TimeInterval, log: @escaping @Sendable (String) -> Void) {
        self.store = store
        self.configuration = configuration
        self.cache = cache
        self.clock = clock
        self.uptime = uptime
        self.log = log
        state = Locked(State(snapshot: OfferingsSnapshot(saved: nil, document: Self.seed(configuration),
                                                          catalog: configuration.catalog,
                                                          bundleId: configuration.appConfiguration.bundleId)))
    }

    /// What a store holding no version is seeded with: `offerings.file` (else no offerings) with `tally.json`'s mapping.
    static func seed(_ configuration: ServerConfiguration) -> OfferingsDocument {
        (configuration.offerings.seed ?? OfferingsDocument()).replacingMapping(with: configuration.appConfiguration)
    }

    /// The snapshot to serve now, after asking the store when the refresh is due. Until the store has been read once,
    /// every caller asks it (the configuration's mapping may not be the live one); after, one caller at a time does.
    func current() -> OfferingsSnapshot {
        let now = uptime()
        let (snapshot, ask) = state.withLock { state -> (OfferingsSnapshot, Bool) in
            guard let checked = state.checkedAt else { return (state.snapshot, true) }
            let due = now - checked >= TimeInterval(configuration.offerings.refreshSeconds)
            guard due, !state.refreshing else { return (state.snapshot, false) }
            state.refreshing = true
            return (state.snapshot, true)
        }
        guard ask else { return snapshot }
        do {
            let (saved, document) = try latest(known: snapshot.saved)
            return install(saved, document: document, checkedAt: now)
        } catch {
            // Before the first load the request itself meets the failing store (and logs it); after, it is said once.
            let first = state.withLock { state -> Bool in
                state.refreshing = false
                defer { state.failing = state.checkedAt != nil }
                return state.checkedAt != nil && !state.failing
            }
            if first { log("offerings: the store could not be read (\(error.message)); serving version \(snapshot.version)") }
            return snapshot
        }
    }

    /// Runs `saved` (a version this server just saved, or read) when it is newer than the one running; `document` is
    /// its document when the caller already read it (else it is read from `saved`'s bytes).
    @discardableResult
    func install(_ saved: SavedOfferings, document known: OfferingsDocument? = nil, checkedAt: TimeInterval? = nil)
        -> OfferingsSnapshot
    {
        let running = state.withLock { $0.snapshot }
        var next: OfferingsSnapshot?
        if saved.version != running.version || running.saved == nil {
            do {
                let document: OfferingsDocument
                if let known {
                    document = known
                } else {
                    document = try OfferingsDocument(jsonData: Data(saved.document),
                                                     fileName: "offerings version \(saved.version)")
                }
                next = OfferingsSnapshot(saved: saved, document: document, catalog: configuration.catalog,
                                         bundleId: configuration.appConfiguration.bundleId)
            } catch {
                log("offerings: version \(saved.version) in the store does not read (\(error.message)); "
                    + "serving version \(running.version)")
            }
        }
        return state.withLock { state in
            if let checkedAt { state.checkedAt = checkedAt }
            state.refreshing = false
            state.failing = false
            if let next, next.version > state.snapshot.version || state.snapshot.saved == nil {
                let rulesChanged = next.fingerprint != state.snapshot.fingerprint
                state.snapshot = next
                if rulesChanged { cache.invalidateAll() }
            }
            return state.snapshot
        }
    }

    /// The newest version in the store, after seeding the first and bringing `tally.json`'s currencies in: they move
    /// every customer's balances, which the store rebuilds only at start, so they are never changed by a save. With
    /// it the document, when read here (nil: `known`, unchanged, or a version another server saved meanwhile).
    private func latest(known: SavedOfferings?) throws(CustomerStoreError) -> (SavedOfferings, OfferingsDocument?) {
        let version = try store.offeringsVersion()
        if let known, known.version == version { return (known, nil) }
        var saved = try store.savedOfferings(version: nil)
        if saved == nil {
            saved = try store.saveOfferings(Self.seed(configuration).jsonBytes(), following: 0, origin: .seed,
                                            rolledBackTo: nil, at: clock.now())
            if saved == nil { saved = try store.savedOfferings(version: nil) }  // another server seeded first
        }
        guard let saved else { throw CustomerStoreError(.failed, "the offerings version saved was not found") }
        let currencies = configuration.appConfiguration.currencies
        guard var document = try? OfferingsDocument(jsonData: Data(saved.document)) else { return (saved, nil) }
        guard document.currencies != currencies else { return (saved, document) }
        document.currencies = currencies
        if let next = try store.saveOfferings(document.jsonBytes(), following: saved.version, origin: .seed,
                                              rolledBackTo: nil, at: clock.now()) {
            return (next, document)
        }
        return (try store.savedOfferings(version: nil) ?? saved, nil)
    }
}
