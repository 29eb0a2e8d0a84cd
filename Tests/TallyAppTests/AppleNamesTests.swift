// A SwiftUI paywall file as an app writes it: Tally, TallyStoreKit, StoreKit and SwiftUI imported together, and
// StoreKit's `Product`, `AppTransaction`, `Storefront`, `SubscriptionPeriod`, `SubscriptionStatus` and SwiftUI's
// `Environment` written unqualified. The stand-ins declare those names (Tests/StoreKitStandIn/AppTransaction.swift,
// Tests/SwiftUIStandIn), so if Tally or TallyStoreKit ever exported one of them again this file would stop
// compiling with "ambiguous", as a device build would.
//
// `Transaction` is the one name StoreKit and SwiftUI both declare (a purchase; an animation transaction): with both
// imported, Apple's own names clash and an app must write `StoreKit.Transaction` (RevenueCat's purchases-ios does the
// same). That ambiguity is Apple's, not Tally's; TransactionNameTests.swift shows SwiftUI's `Transaction` unqualified
// beside Tally alone.
import Foundation
#if os(Linux)
@_spi(Scripting) import StoreKit
#else
import StoreKit
#endif
import SwiftUI
import Tally
import TallyStoreKit
import Testing

/// What a paywall shows of StoreKit's values, next to Tally's product.
@available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)  // StoreKit's Subscription* typealiases
struct PaywallFacts {
    let product: Product
    let period: SubscriptionPeriod?
    let status: SubscriptionStatus?
    let storefront: Storefront?
    let appTransaction: AppTransaction?
    let tally: StoreProduct?

    /// The line under the price.
    var caption: String {
        var parts = [product.displayPrice]
        if let period { parts.append("every \(period.value) \(period.unit)") }
        if let storefront { parts.append(storefront.countryCode) }
        if let appTransaction { parts.append("since \(appTransaction.originalAppVersion)") }
        if let status, status.state == .subscribed { parts.append("subscribed") }
        return parts.joined(separator: " · ")
    }
}

/// A paywall view closing itself with SwiftUI's environment.
@available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)  // StoreKit's Subscription* typealiases
struct PaywallView: View {
    @Environment(\.dismiss) private var dismiss
    let facts: PaywallFacts

    var body: some View {
        List {
            Text(facts.caption)
            Button("Not now") { dismiss() }
        }
    }
}

@Suite("An app importing Tally, TallyStoreKit, StoreKit and SwiftUI")
struct AppleNamesTests {
    @Test("StoreKit's Product, AppTransaction, Storefront, SubscriptionPeriod, SubscriptionStatus and SwiftUI's Environment, unqualified")
    @available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)  // StoreKit's Subscription* typealiases
    @MainActor
    func appleNamesUnqualified() throws {
        #if os(Linux)
        // Apple's types have no public initializer; the stand-in's scripting ones build the values an app receives.
        let product = Product(id: "app.pro.monthly", type: .autoRenewable, displayName: "Pro", price: 4.99,
                              currencyCode: "USD", displayPrice: "$4.99")
        let facts = PaywallFacts(
            product: product, period: SubscriptionPeriod(value: 1, unit: .month), status: nil,
            storefront: Storefront(countryCode: "FRA", id: "143442"),
            appTransaction: AppTransaction(bundleID: "com.example.app", originalAppVersion: "1.0"), tally: nil)
        #expect(facts.caption == "$4.99 · every 1 month · FRA · since 1.0")
        let dismiss: Environment<DismissAction> = Environment(\.dismiss)
        dismiss.wrappedValue()
        _ = PaywallView(facts: facts).body
        #endif
        let storeKitBackend: StoreKitBackend.Type = StoreKitBackend.self  // TallyStoreKit beside them
        #expect("\(storeKitBackend)" == "StoreKitBackend")
    }
}
