import Foundation


/// The store's "now", as a backend supplies it (see ``StoreBackend/clock``). Read synchronously and often (every
/// look at ``Store/state``), so it must be cheap.
public struct StoreClock: Sendable {
    private let read: @Sendable () -> Date

    /// A clock reading `now` each time.
    public init(_ now: @escaping @Sendable () -> Date) {
        read = now
    }

    /// The wall clock (StoreKit's, and the App Store's).
    public static let system = StoreClock { Date() }

    /// The current time.
    public func now() -> Date {
        read()
    }
}
