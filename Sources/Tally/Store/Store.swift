import Foundation
import TallyCore


/// The one object an app talks to for in-app purchases (what the tutorials' `IAPManager` did): products,
/// purchases, restore, what the customer owns, virtual currency, and events.
///
/// Create it once at launch. Creation reads the customer file in `directory` (repairing it if damaged),
/// delivers the transactions an earlier run left unfinished, then listens to the backend's transaction
/// updates for as long as the store lives (or until ``close()``).
///
/// Time is the backend's (``StoreBackend/clock``): a renewal or refund dated by the store counts as soon as the
/// store's clock reaches it.
///
/// Only signed transactions count: each one the backend delivers or restores, and each one read back from the
/// customer file, must carry a signed form (``TransactionUpdate/jwsRepresentation``) that the backend's
/// ``StoreBackend/transactionVerifier`` verifies; the engine keeps the verified payload with its signed form, and
/// ignores (and reports in ``diagnostics``) a copy in the file whose signed form is missing or wrong. Renewal infos
/// (billing retry, grace period, auto-renew) likewise count only with a signed form
/// (``SignedRenewalInfo/jwsRepresentation``) that the verifier verifies as signing exactly that renewal info.
/// Spends are local records, not signed: see ``spend(_:of:id:)``.
///
/// Delivery is crash-safe: a transaction is finished with the backend only after its effect is durably
/// written (see ``DeliveryStep``), and a transaction arriving again credits once.
///
/// With a ``ServerLink``, each delivered transaction is also posted to the app's server and finished only once
/// the server took it; ``state`` is then the server's (one state for every device of the customer), with the
/// server's last state saved on disk (plus purchases not posted yet) while the server cannot be reached
/// (``stateSource``); ``spend(_:of:id:)`` belongs to the app's backend, and ``switchCustomer(to:appAccountToken:)``
/// logs in and out.
public actor Store {
    /// The products' details the ownership rules read (product types, subscription groups).
    public nonisolated let catalog: Catalog
    /// The app configuration (`tally.json`): entitlements, currencies, non-renewing durations.
    public nonisolated let configuration: AppConfiguration
    /// The data directory holding the customer file.
    public nonisolated let directory: URL
    /// The locale products are localized for (`en_US`).
    public nonisolated let locale: String
    /// Problems found and worked around since creation (a damaged file, a failed finish), oldest first.
    public private(set) var diagnostics: [StoreDiagnostic]

    let backend: any StoreBackend
    /// The backend's clock: the one "now" of the ownership rules, spends and pending purchases.
    let clock: StoreClock
    let deliveryObserver: DeliveryObserver?
    let file: CustomerFile
    /// The backend's verifier, with the signed forms it verified in this process.
    let signedForms: SignedForms
    var record: CustomerRecord
    var productCache: [String: StoreProduct] = [:]
    var invalidProductIds: Set<String> = []
    /// Groups whose introductory offer the backend said the customer can no longer get.
    var storeIneligibleGroups: Set<String> = []
    /// The state events were last computed from; nil when unknown.
    var lastState: CustomerState?
    /// Entries applied but not yet on disk; written with the next durable write (see ``remember(_:)``).
    var unsynced: [JournalEntry] = []
    var listener: Task<Void, Never>?
    nonisolated let hub = EventHub()
    /// The link to the app's server, if any (see ``ServerLink``); its `appUserId` changes with
    /// ``switchCustomer(to:appAccountToken:)``.
    public internal(set) var serverLink: ServerLink?
    var server: ServerClient?
    /// The `appAccountToken` the server minted for the link's customer, once asked (``purchaseAccountToken()``).
    var mintedAccountToken: UUID?
    /// The server's customer state from the last successful post or read, or saved on disk by an earlier run.
    var serverState: CustomerState?
    /// When the server answered ``state`` (the backend's clock), with a server link once it answered once; kept
    /// across restarts in `server-state.json`. Nil without a server state.
    public internal(set) var serverStateDate: Date?
    /// Where ``state`` comes from now.
    public internal(set) var stateSource: StateSource
    /// Why the server gave no usable answer to the last request this store made of it (unreachable, rate-limited
    /// with its `Retry-After`, a server error); nil without a link, before the first request fails, and once the
    /// server answers again (a post taken or refused, a state read).
    public internal(set) var serverProblem: ServerProblem?
    /// Transactions written locally that the server has not taken yet, oldest first (unfinished with the store).
    var pendingPosts: [PendingPost] = []
    /// The back-off loop posting ``pendingPosts`` again; nil when none runs.
    var retryTask: Task<Void, Never>?
    /// Transactions being delivered (``deliver(_:context:fromPurchaseCall:announcing:)`` suspends while it posts
    /// and finishes): a copy arriving meanwhile waits for that delivery to end, so it is posted, finished and
    /// announced once.
    var inFlight: Set<UTF8Key> = []
    /// Tasks waiting for a delivery in ``inFlight`` to end; resumed (to look again) whenever one ends.
    var deliveryWaiters: [CheckedContinuation<Void, Never>] = []
    /// The products of the purchase calls under way (one entry per call): ``switchCustomer(to:appAccountToken:)``
    /// is refused while any is open.
    var openPurchases: [String] = []
    /// True while ``switchCustomer(to:appAccountToken:)`` runs: a second switch is refused meanwhile.
    var isSwitching = false
    /// True after ``close()``.
    var isClosed = false
    /// The offerings answers kept and given (``offerings(placement:)``).
    var offeringsMemory = OfferingsMemory()

    /// Opens the store: reads (or repairs) the customer file, delivers what an earlier run left unfinished,
    /// then starts listening to transaction updates.
    ///
    /// - Parameters:
    ///   - backend: the store to talk to.
    ///   - catalog: the products (from the app's `.storekit` file or the backend).
    ///   - configuration: the app's `tally.json`.
    ///   - directory: where the customer file lives (created if missing).
    ///   - locale: the locale for display names and prices.
    ///   - serverLink: the app's `tally serve`: every delivered transaction is posted there before it is
    ///     finished, and ``state`` comes from there (see ``stateSource``). Nil: the customer file alone.
    ///   - deliveryObserver: called at each ``DeliveryStep``; for crash-test harnesses.
    /// - Throws: ``StoreError/Code/storage`` when the directory cannot be created, read or written.
    public init(backend: some StoreBackend, catalog: Catalog, configuration: AppConfiguration, directory: URL,
                locale: String = Locale.current.identifier, serverLink: ServerLink? = nil,
                deliveryObserver: DeliveryObserver? = nil) async throws(StoreError) {
        let clock = backend.clock
        let file = CustomerFile(directory: directory)
        let signedForms = SignedForms(verifier: backend.transactionVerifier)
        let (record, diagnostics) = try file.open(now: clock.now(), signedForms: signedForms)
        var serverLink = serverLink
        if serverLink?.appUserId.isEmpty == true {
            serverLink?.appUserId = try SavedCustomerId.currentOrNew(in: directory)  // anonymous until logIn(_:)
        }
        self.backend = backend
        self.catalog = catalog
        self.configuration = configuration
        self.directory = directory
        self.locale = locale
        self.clock = clock
        self.deliveryObserver = deliveryObserver
        self.file = file
        self.signedForms = signedForms
        self.record = record
        self.diagnostics = diagnostics
        self.serverLink = serverLink
        server = serverLink.map(ServerClient.init(link:))
        stateSource = serverLink == nil ? .local : .localCache
        if let serverLink, serverLink.serverPublicKey == nil {
            self.diagnostics.append(StoreDiagnostic(.serverAnswersUnsigned, "the ServerLink pins no serverPublicKey: "
                + "the server's answers and server-state.json are believed unchecked (`tally serve signing-key` makes "
                + "the server's key; pin its public key in ServerLink.serverPublicKey)"))
        } else if let key = serverLink?.serverPublicKey {
            do { _ = try AnswerVerifier(publicKey: key).key() } catch {
                self.diagnostics.append(StoreDiagnostic(.serverAnswerUnverified, "\(error): every answer of the "
                    + "server is refused and server-state.json is not shown until the link pins the key "
                    + "`tally serve signing-key` printed"))
            }
        }
        loadSavedServerState()
        // Subscribe before reading the unfinished ones, so nothing slips between the two (a duplicate is harmless).
        let updates = backend.transactionUpdates()
        let declines = backend.purchaseDeclines()
        let problems = backend.problems()
        let renewals = backend.renewalInfoUpdates()
        if record.needsRestore { await rebuildFromStore() }
        await deliverUnfinished()
        await endDeclinedAtLaunch()
        if server != nil, stateSource != .server { await readServerState() }
        startListening(to: updates, declines: declines, problems: problems, renewals: renewals)
    }

    deinit {
        listener?.cancel()
        retryTask?.cancel()
        hub.finishAll()
    }

    /// Stops listening to transaction updates, waits for a delivery under way to end (its write and its
    /// finish with the backend), ends every event stream and releases the data directory for another store.
    /// The customer file stays; later purchases and spends on this store fail.
    public func close() async {
        isClosed = true
        retryTask?.cancel()
        retryTask = nil
        if let listener {
            listener.cancel()
            await listener.value
            self.listener = nil
        }

        if !unsynced.isEmpty, (try? file.append(unsynced, durable: false)) != nil { unsynced = [] }
        file.close()
        hub.finishAll()
    }

    /// A new stream of events; any number of subscribers may listen, and each gets every event. The events
    /// emitted before the first subscriber attached (the delivery of unfinished transactions at launch) are
    /// replayed to every subscriber first, whenever it subscribes; then come the events emitted from then on.
    public nonisolated func events() -> AsyncStream<StoreEvent> {
        hub.subscribe()
    }

    /// Purchases waiting for Ask to Buy approval, oldest first.
    public var pendingPurchases: [PendingPurchase] {
        record.pending.values.sorted { ($0.date, $0.id) < ($1.date, $1.id) }
    }

    /// The purchase history in the customer file.
    public var history: PurchaseHistory { record.history }

    /// Sends events to the subscribers; the replay kept before the first subscriber filling up is reported once.
    func emit(_ events: [StoreEvent]) {
        if hub.emit(events) {
            report(StoreDiagnostic(.eventsDropped, "more than \(EventHub.replayLimit) events were emitted before "
                + "anyone subscribed to events(); the first \(EventHub.replayLimit) are replayed to subscribers, "
                + "later ones until the first subscriber are dropped: subscribe right after creating the store"))
        }
    }

    /// Records a problem for ``diagnostics``.
    func report(_ diagnostic: StoreDiagnostic) {
        diagnostics.append(diagnostic)
    }
}
