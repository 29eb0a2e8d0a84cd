// The market as an iOS / macOS app (SwiftUI). On Apple platforms an Xcode app target builds it (see README.md); its
// deployment target is iOS 17 / macOS 14, because it keeps MarketShop (`@Observable`) in `@State`. On Linux the
// `MarketApp` target type-checks it against the SwiftUI and StoreKit stand-ins (`make check-apple`); it has not yet
// run on an Apple device. Everything it shows comes from MarketShop, which is compiled and tested on Linux; this file
// only lays it out.
//
// SwiftUI and StoreKit both declare a top-level `Transaction` (SwiftUI's animation transaction, StoreKit's
// purchase): a file importing both must write `StoreKit.Transaction` (or `SwiftUI.Transaction`). That ambiguity is
// Apple's; none of Tally's names adds to it.
import Foundation
import StoreKit
import SwiftUI
import Tally
#if canImport(MarketAppModel)
// SwiftPM's Linux type-check builds MarketShop.swift as its own module; in the Xcode app target it is a file of the
// same module (see README.md) and there is no such module to import.
import MarketAppModel
#endif

@main
struct MarketApp: App {
    @State private var shop: MarketShop?
    @State private var failure: String?

    var body: some Scene {
        WindowGroup {
            Group {
                if let shop {
                    MarketView(shop: shop)
                } else if let failure {
                    Text(failure).padding()
                } else {
                    ProgressView()
                }
            }
            .task { await open() }
        }
    }

    private func open() async {
        guard shop == nil else { return }
        do {
            let support = try FileManager.default.url(for: .applicationSupportDirectory, in: .userDomainMask,
                                                      appropriateFor: nil, create: true)
            shop = try await MarketShop.open(
                storeKitFile: Bundle.main.url(forResource: "Market", withExtension: "storekit")!,
                configurationFile: Bundle.main.url(forResource: "tally", withExtension: "json")!,
                directory: support.appendingPathComponent("Tally"),
                // Xcode's StoreKit testing signs with its own certificate; an App Store build passes
                // [.production, .sandbox] and the app's Apple id.
                environments: [.xcode])
        } catch {
            failure = "The store could not open: \(error)"
        }
    }
}

@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
struct MarketView: View {
    let shop: MarketShop

    var body: some View {
        NavigationStack {
            List {
                Section {
                    LabeledContent("Coins", value: shop.coins.formatted())
                    Label(shop.isPremiumUnlocked ? "Premium unlocked" : "Premium locked",
                          systemImage: shop.isPremiumUnlocked ? "lock.open" : "lock")
                }
                if !shop.pendingRows.isEmpty {
                    Section("Waiting for approval") {
                        ForEach(shop.pendingRows, id: \.self) { name in
                            Label(name, systemImage: "hourglass")
                        }
                    }
                }
                Section("Shop") {
                    ForEach(shop.rows) { row in
                        HStack {
                            Text(row.name)
                            Spacer()
                            switch row.action {
                            case .buy where shop.canBuy:
                                Button(row.price) { Task { await shop.buy(row.id) } }.buttonStyle(.bordered)
                            case .buy: Text(row.price).foregroundStyle(.secondary)
                            case .owned:
                                Image(systemName: "checkmark")
                                #if !os(tvOS) && !os(watchOS)
                                RefundButton(shop: shop, productId: row.id)
                                #endif

                            case .waitingForApproval: Image(systemName: "hourglass")
                            }
                        }
                    }
                }
                if let message = shop.message {
                    Section { Text(message).foregroundStyle(.secondary) }
                }
            }
            .navigationTitle("Market")
            .toolbar { Button("Restore") { Task { await shop.restore() } } }
            .refreshable { await shop.load() }
        }
    }
}

#if !os(tvOS) && !os(watchOS)
/// Asks the App Store for a refund of the latest purchase of a product (StoreKit's refund sheet: iOS 15, macOS 14,
/// visionOS; not on tvOS or watchOS). A granted refund reaches the store as a revocation, and the row follows.
@available(iOS 17.0, macOS 14.0, visionOS 1.0, *)
struct RefundButton: View {
    let shop: MarketShop
    let productId: String
    @State private var transactionID: StoreKit.Transaction.ID?
    @State private var isPresented = false

    var body: some View {
        Button("Refund") {
            Task {
                transactionID = await shop.refundableTransactionId(of: productId)
                isPresented = transactionID != nil
            }
        }
        .refundRequestSheet(for: transactionID ?? 0, isPresented: $isPresented) { result in
            if case .failure(let error) = result { shop.show("The refund request failed: \(error)") }
        }
    }
}
#endif
