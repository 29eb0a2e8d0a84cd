import Foundation


/// Something the store noticed and worked around, reported instead of silently ignored.
public struct StoreDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem.
    public enum Kind: String, Sendable, Hashable {
        /// `customer.json` did not decode; it was moved aside and the state rebuilt from a restore.
        case corruptCustomerFile
        /// A journal line other than the last failed its checksum; the journal was copied aside.
        case corruptJournalLine
        /// A transaction in the customer file (snapshot or journal line) has no signed form, or one that does not
        /// verify with the backend's verifier or signs another transaction: it was ignored (it grants nothing),
        /// the file copied aside and the state rebuilt with a restore.
        case unverifiedTransaction
        /// A renewal info in the customer file (snapshot or journal line), or from the backend, has no signed form,
        /// or one that does not verify with the backend's verifier or signs another renewal info: it was ignored
        /// (it grants nothing: no billing retry, no grace period) and the file copied aside. The store's next
        /// subscription status (``Store/refreshSubscriptionStatus()``) brings signed ones.
        case unverifiedRenewalInfo
        /// The journal's last line was incomplete (a write cut short by a crash); it was ignored.
        case tornJournalTail
        /// Rebuilding from the store failed; it is retried at the next launch.
        case restoreFailed
        /// The backend refused to finish a transaction; it is delivered again (and credited once) later.
        case finishFailed
        /// The server of the ``ServerLink`` could not take a transaction (unreachable, 5xx, 429, …): it stays
        /// unfinished with the store and is posted again with back-off (see ``RetryPolicy``).
        case serverUnavailable
        /// The server refused a transaction for good (422 `verification_failed`, 409 `owned_by_another_customer`):
        /// it was finished with the store, credits nothing on the server, and is not posted again.
        case serverRefused
        /// The server's saved state (`server-state.json`) could not be read or written: it is not shown while
        /// the server cannot be reached (the customer file is), and is written again at the server's next answer.
        case savedServerStateUnusable
        /// The server answered, but its answer's `Tally-Signature` does not verify with the pinned
        /// ``ServerLink/serverPublicKey`` (missing, forged, or signed for another request's nonce or another
        /// customer): it was not believed — a post stays unfinished and is posted again, the state shown stays the
        /// last one believed.
        case serverAnswerUnverified
        /// `server-state.json` does not carry a server signature that verifies with the pinned
        /// ``ServerLink/serverPublicKey`` for this customer (edited, forged, copied from another customer or server,
        /// or written before the key was pinned): it is ignored until the server answers again.
        case savedServerStateUnverified
        /// The ``ServerLink`` pins no ``ServerLink/serverPublicKey``: the server's answers and `server-state.json`
        /// are believed unchecked (anyone who can edit the file or answer for the server decides the state).
        case serverAnswersUnsigned
        /// Transaction updates could not be read or written.
        case deliveryFailed
        /// More events came before the first subscriber than the replay keeps (256); the first ones are kept.
        case eventsDropped
        /// The server took a transaction (2xx) but named no `outcome` this engine knows (a newer server): the
        /// outcome is reported as unknown (nil), never guessed.
        case unknownServerOutcome
        /// A package of the server's offerings names a product the store does not sell: it was left out of
        /// ``StoreOfferings`` (``StoreOfferings/skippedPackages``). Reported once per package and process.
        case offeringPackageSkipped
        /// The server's offerings could not be read (unreachable, rate-limited, an answer that does not decode):
        /// the kept answer, or the bundled catalog, is shown (``StoreOfferings/problem``).
        case offeringsUnavailable
        /// `offerings-cache.json` could not be read or written: the kept offerings are not shown offline until
        /// the server answers again.
        case offeringsCacheUnusable
        /// The backend left out something it could not read (a transaction or a product's subscription period or
        /// offer that does not decode); the rest of its answer was used (``StoreBackend/problems()``).
        case backendProblem
    }

    /// The kind of problem.
    public var kind: Kind
    /// What happened, naming the file or transaction.
    public var message: String
    /// Where a damaged file was moved, if it was.
    public var movedTo: URL?

    /// Creates a diagnostic.
    public init(_ kind: Kind, _ message: String, movedTo: URL? = nil) {
        self.kind = kind
        self.message = message
        self.movedTo = movedTo
    }

    /// The message.
    public var description: String { message }
}
