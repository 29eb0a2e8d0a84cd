// The market as an iOS / macOS app (SwiftUI). Not part of any SwiftPM build: Package.swift excludes this file (it
// needs SwiftUI and an app target, see README.md). Everything it shows comes from MarketShop, which is compiled and
// tested on Linux; this file only lays it out, and has not been compiled yet.
import SwiftUI
import Tally

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
                            case .owned: Image(systemName: "checkmark")
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
