import Foundation

/// Stands in for `StoreKit.PurchaseIntent`: a purchase the customer started in the App Store (a promoted in-app
/// purchase), delivered through ``intents`` for the app to complete (or defer) with `product.purchase(options:)`.
/// Tests push one with ``StoreKitSheetScript/pushIntent(_:offer:)``.
@available(iOS 16.4, macOS 14.4, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
@available(visionOS, unavailable)
public struct PurchaseIntent: Equatable, Sendable {
    /// The product the customer chose in the App Store.
    public let product: Product

    /// The subscription offer promoted with it, if any.
    @available(iOS 18.0, macOS 15.0, *)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    @available(visionOS, unavailable)
    public let offer: Product.SubscriptionOffer?

    /// The product's id.
    @available(iOS 16.4, macOS 14.4, *)
    @backDeployed(before: iOS 18.0, macOS 15.0, macCatalyst 18.0)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    @available(visionOS, unavailable)
    public var id: Product.ID { product.id }

    init(product: Product, offer: Product.SubscriptionOffer?) {
        self.product = product
        self.offer = offer
    }

    /// Equal when product and offer are.
    public static func == (a: PurchaseIntent, b: PurchaseIntent) -> Bool {
        a.product == b.product && a.offer == b.offer
    }
}

@available(iOS 18.0, macOS 15.0, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
@available(visionOS, unavailable)
extension PurchaseIntent: Identifiable {
    /// The product's id.
    @available(iOS 18.0, macOS 15.0, *)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    @available(visionOS, unavailable)
    public typealias ID = Product.ID
}

@available(iOS 16.4, macOS 14.4, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
@available(visionOS, unavailable)
extension PurchaseIntent {
    /// Stands in for `PurchaseIntent.PurchaseIntents`: the intents as they arrive (one waiting from before the first
    /// iteration is delivered to it).
    public struct PurchaseIntents: AsyncSequence {
        /// A purchase intent.
        public typealias Element = PurchaseIntent

        let stream: AsyncStream<PurchaseIntent>

        /// Iterates the intents.
        public struct AsyncIterator: AsyncIteratorProtocol {
            var base: AsyncStream<PurchaseIntent>.AsyncIterator

            /// The next intent; nil when the script is reset.
            public mutating func next() async -> PurchaseIntent.PurchaseIntents.Element? { await base.next() }

            /// A purchase intent.
            @available(iOS 16.4, macOS 14.4, *)
            @available(tvOS, unavailable)
            @available(watchOS, unavailable)
            @available(visionOS, unavailable)
            public typealias Element = PurchaseIntent.PurchaseIntents.Element
        }

        /// Starts iterating.
        public func makeAsyncIterator() -> PurchaseIntent.PurchaseIntents.AsyncIterator {
            AsyncIterator(base: stream.makeAsyncIterator())
        }
    }

    /// The purchase intents, from now on (and the ones waiting for a first listener).
    public static var intents: PurchaseIntent.PurchaseIntents {
        PurchaseIntents(stream: StoreKitSheetScript.shared.intentStream())
    }
}
