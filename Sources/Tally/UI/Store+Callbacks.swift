import Foundation
import TallyCore


/// Callbacks on the main actor, for apps that prefer closures or delegates to `async`/`await`.
extension Store {
    /// Calls `handler` on the main actor for every event until the returned subscription is cancelled or
    /// released (what the tutorials' `purchasePublisher` and delegates were for).
    public nonisolated func onEvent(_ handler: @escaping @MainActor @Sendable (StoreEvent) -> Void) -> StoreSubscription {
        let events = events()
        return StoreSubscription(task: Task {
            for await event in events { await handler(event) }
        })
    }

    /// Buys a product and calls `completion` on the main actor with the outcome or the error.
    public nonisolated func purchase(
        _ productId: String, quantity: Int = 1, appAccountToken: UUID? = nil,
        context: PurchaseContext = PurchaseContext(),
        completion: @escaping @MainActor @Sendable (Result<PurchaseOutcome, StoreError>) -> Void
    ) {
        Task {
            do throws(StoreError) {
                let outcome = try await purchase(productId, quantity: quantity, appAccountToken: appAccountToken,
                                                 context: context)
                await completion(.success(outcome))
            } catch {
                await completion(.failure(error))
            }
        }
    }

    /// Restores purchases and calls `completion` on the main actor with what came back or the error.
    public nonisolated func restore(
        completion: @escaping @MainActor @Sendable (Result<[StoreTransaction], StoreError>) -> Void
    ) {
        Task {
            do throws(StoreError) {
                await completion(.success(try await restore()))
            } catch {
                await completion(.failure(error))
            }
        }
    }
}
