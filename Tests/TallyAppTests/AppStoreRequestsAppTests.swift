// An app file that handles what the App Store starts: StoreKit's `PurchaseIntent` and `Message` written unqualified
// beside Tally's `PromotedPurchase` and `StoreMessage` (Tally declares neither of StoreKit's names).
import Foundation
#if os(Linux)
@_spi(Scripting) import StoreKit
#else
import StoreKit
#endif
import Tally
import Testing

#if os(Linux) || os(iOS)
/// How the app names a message in its analytics: Tally's reason, and whether StoreKit's is a billing issue.
/// (`Message` is iOS and visionOS only, `PurchaseIntent` not on tvOS, watchOS or visionOS.)
@available(iOS 16.4, *)
func analyticsName(_ reason: Message.Reason, _ tally: StoreMessage.Reason, promoted: PurchaseIntent?) -> String {
    "\(tally.rawValue) (\(reason == .billingIssue ? "billing" : "other"))" + (promoted.map { " after \($0.id)" } ?? "")
}
#endif

@Suite("An app handling promoted purchases and App Store messages")
struct AppStoreRequestsAppTests {
    @Test("a backend without them (the defaults): promotedPurchases() and storeMessages() end at once, empty")
    func defaultsEndAtOnce() async throws {
        let premium = CatalogProduct(id: "app.premium", kind: .nonConsumable, price: 4.99, currency: "USD")
        let catalog = Catalog(products: [premium])
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-app-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try await Store(backend: PreviewBackend(catalog: catalog), catalog: catalog,
                                    configuration: AppConfiguration(bundleId: "com.example.app"),
                                    directory: directory, locale: "en_US")
        var intents: [PromotedPurchase] = []
        for await intent in store.promotedPurchases() { intents.append(intent) }
        var messages: [StoreMessage] = []
        for await message in store.storeMessages() { messages.append(message) }
        #expect(intents.isEmpty && messages.isEmpty)
        #if os(Linux) || os(iOS)
        if #available(iOS 16.4, *) {
            #expect(analyticsName(.billingIssue, .billingIssue, promoted: nil) == "billingIssue (billing)")
            #expect(analyticsName(.priceIncreaseConsent, .priceIncrease, promoted: nil) == "priceIncrease (other)")
        }
        #endif
        await store.close()
    }
}
