#if canImport(StoreKit)
import Foundation
import StoreKit
import TallyCore

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension StoreKitBackend {
    /// StoreKit's product as the engine's: kind, exact price and currency (`priceFormatStyle.currencyCode`), the
    /// localized name and description StoreKit gives (for the device's locale), subscription group, level, period
    /// and offers (win-back offers from iOS 18). Nil for a kind the engine does not sell (a newer SDK's bundle) or
    /// a subscription period of a unit it does not know, which is then reported invalid; an offer it cannot read is
    /// left out. Each of these is said in `problems`.
    static func product(_ product: StoreKit.Product, problems: inout [String]) -> TallyCore.CatalogProduct? {
        let kind: ProductKind
        switch product.type {
        case .consumable: kind = .consumable
        case .nonConsumable: kind = .nonConsumable
        case .nonRenewable: kind = .nonRenewing
        case .autoRenewable: kind = .autoRenewable
        default:
            problems.append("product \(product.id): StoreKit's type '\(product.type.rawValue)' is not one this "
                + "version of Tally sells; reported invalid")
            return nil
        }
        var subscription: TallyCore.CatalogProduct.Subscription?
        if let info = product.subscription {
            guard let read = Self.subscription(info, of: product.id, problems: &problems) else { return nil }
            subscription = read
        }
        return TallyCore.CatalogProduct(
            id: product.id, kind: kind, price: product.price, currency: product.priceFormatStyle.currencyCode,
            familyShareable: product.isFamilyShareable,
            localizations: [.init(locale: Locale.current.identifier, displayName: product.displayName,
                                  description: product.description)],
            subscription: subscription)
    }

    /// The subscription's group, level, period and offers; nil (said in `problems`) when its period's unit is
    /// unknown. An offer that cannot be read is left out (said in `problems`).
    static func subscription(_ info: StoreKit.Product.SubscriptionInfo, of productId: String,
                             problems: inout [String]) -> TallyCore.CatalogProduct.Subscription? {
        let level: Int
        if #available(iOS 16.4, macOS 13.3, tvOS 16.4, watchOS 9.4, *) {
            // Before iOS 17 this can be the sentinel 0: no level known.
            level = info.groupLevel > 0 ? info.groupLevel : 1
        } else {
            level = 1
        }
        guard let period = period(info.subscriptionPeriod) else {
            problems.append("product \(productId): its subscription period's unit (\(info.subscriptionPeriod.unit)) "
                + "is not one this version of Tally knows; reported invalid")
            return nil
        }
        func read(_ offer: StoreKit.Product.SubscriptionOffer, kind: TallyCore.SubscriptionOffer.Kind)
            -> TallyCore.SubscriptionOffer? {
            guard let read = Self.offer(offer, kind: kind) else {
                problems.append("product \(productId): its \(kind.rawValue) offer \(offer.id ?? "") has a payment "
                    + "mode ('\(offer.paymentMode.rawValue)') or period this version of Tally does not know; the "
                    + "offer is left out")
                return nil
            }
            return read
        }
        var winBackOffers: [TallyCore.SubscriptionOffer] = []
        if #available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            winBackOffers = info.winBackOffers.compactMap { read($0, kind: .winBack) }
        }
        return TallyCore.CatalogProduct.Subscription(
            groupId: info.subscriptionGroupID, level: level, period: period,
            introductoryOffer: info.introductoryOffer.flatMap { read($0, kind: .introductory) },
            promotionalOffers: info.promotionalOffers.compactMap { read($0, kind: .promotional) },
            winBackOffers: winBackOffers)
    }

    /// StoreKit's period as the engine's; nil for a unit this version does not know.
    static func period(_ period: StoreKit.Product.SubscriptionPeriod) -> TallyCore.SubscriptionDuration? {
        let unit: TallyCore.SubscriptionDuration.Unit
        switch period.unit {
        case .day: unit = .day
        case .week: unit = .week
        case .month: unit = .month
        case .year: unit = .year
        @unknown default: return nil
        }
        return TallyCore.SubscriptionDuration(value: period.value, unit: unit)
    }

    /// StoreKit's offer as the engine's; nil for a payment mode or period this version does not know.
    static func offer(_ offer: StoreKit.Product.SubscriptionOffer,
                      kind: TallyCore.SubscriptionOffer.Kind) -> TallyCore.SubscriptionOffer? {
        let mode: TallyCore.SubscriptionOffer.PaymentMode
        switch offer.paymentMode {
        case .freeTrial: mode = .freeTrial
        case .payUpFront: mode = .payUpFront
        case .payAsYouGo: mode = .payAsYouGo
        default: return nil
        }
        guard let period = period(offer.period) else { return nil }
        return TallyCore.SubscriptionOffer(id: offer.id, kind: kind, paymentMode: mode, period: period,
                                           periodCount: offer.periodCount, price: offer.price)
    }
}
#endif
