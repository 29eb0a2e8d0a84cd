#if canImport(StoreKit)
import Foundation
import StoreKit
import TallyCore

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, *)
@available(visionOS, unavailable)
extension StoreKitBackend {
    /// StoreKit's product as the engine's: kind, exact price and currency (`priceFormatStyle.currencyCode`), the
    /// localized name and description StoreKit gives (for the device's locale), subscription group, level, period
    /// and offers. Nil for a kind the engine does not sell (a newer SDK's bundle), which is then reported invalid.
    static func product(_ product: StoreKit.Product) -> TallyCore.Product? {
        let kind: ProductKind
        switch product.type {
        case .consumable: kind = .consumable
        case .nonConsumable: kind = .nonConsumable
        case .nonRenewable: kind = .nonRenewing
        case .autoRenewable: kind = .autoRenewable
        default: return nil
        }
        return TallyCore.Product(
            id: product.id, kind: kind, price: product.price, currency: product.priceFormatStyle.currencyCode,
            familyShareable: product.isFamilyShareable,
            localizations: [.init(locale: Locale.current.identifier, displayName: product.displayName,
                                  description: product.description)],
            subscription: product.subscription.map(subscription))
    }

    static func subscription(_ info: StoreKit.Product.SubscriptionInfo) -> TallyCore.Product.Subscription {
        let level: Int
        if #available(iOS 16.4, macOS 13.3, tvOS 16.4, watchOS 9.4, *) {
            // Before iOS 17 this can be the sentinel 0: no level known.
            level = info.groupLevel > 0 ? info.groupLevel : 1
        } else {
            level = 1
        }
        return TallyCore.Product.Subscription(
            groupId: info.subscriptionGroupID, level: level, period: period(info.subscriptionPeriod),
            introductoryOffer: info.introductoryOffer.map { offer($0, kind: .introductory) },
            promotionalOffers: info.promotionalOffers.map { offer($0, kind: .promotional) })
    }

    static func period(_ period: StoreKit.Product.SubscriptionPeriod) -> TallyCore.SubscriptionPeriod {
        let unit: TallyCore.SubscriptionPeriod.Unit = switch period.unit {
        case .day: .day
        case .week: .week
        case .month: .month
        case .year: .year
        @unknown default: .day
        }
        return TallyCore.SubscriptionPeriod(value: period.value, unit: unit)
    }

    static func offer(_ offer: StoreKit.Product.SubscriptionOffer,
                      kind: TallyCore.SubscriptionOffer.Kind) -> TallyCore.SubscriptionOffer {
        let mode: TallyCore.SubscriptionOffer.PaymentMode = switch offer.paymentMode {
        case .freeTrial: .freeTrial
        case .payUpFront: .payUpFront
        default: .payAsYouGo
        }
        return TallyCore.SubscriptionOffer(id: offer.id, kind: kind, paymentMode: mode, period: period(offer.period),
                                           periodCount: offer.periodCount, price: offer.price)
    }
}
#endif
