import Foundation
import TallyCore

/// The store-wide part of a sandbox, kept as one JSON row: the catalog, the clock, the switches, pending
/// purchases and the id counters. Small; every change rewrites it.
struct SandboxHeader: Codable, Hashable, Sendable {
    var catalog: Catalog
    var configuration: AppConfiguration
    var now: Date
    var settings: SandboxSettings
    var environment: StoreEnvironment
    var pending: [PendingPurchase]
    var resolvedPurchases: [String]
    var nextTransactionNumber: Int64
    var nextWebOrderNumber: Int64
    var nextPurchaseNumber: Int
    var nextDeliverySequence: Int
    /// Mass renewal-date extensions; absent in rows written before they were kept.
    var massExtensions: [SandboxMassExtension]?
    /// The files the catalog was read from; absent in rows written before they were kept.
    var catalogSource: SandboxCatalogSource?
    /// Offer signature nonces used in the last 24 hours; absent while none (and in rows written before).
    var usedOfferNonces: [String: Date]?
    /// Offer codes made; absent while none.
    var offerCodes: [SandboxOfferCode]?
}

/// The small per-account facts kept as one JSON row (the transactions, chains and unfinished deliveries have
/// rows of their own).
struct AccountInfo: Codable, Hashable, Sendable {
    var devices: [String]
    var introductoryOfferUsedGroups: [String]
    var declinedPurchases: [String]
    /// Absent in rows written before refund requests were kept.
    var refundRequests: [SandboxRefundRequest]?
    /// Absent in rows written before consumption information was kept.
    var consumption: [String: SandboxConsumptionInfo]?
    /// Absent in rows written before purchase intents, messages and sheet calls were kept, and while empty.
    var purchaseIntents: [SandboxPurchaseIntent]?
    var messages: [SandboxMessage]?
    var sheetCalls: [SandboxSheetCall]?
    /// Win-back offers redeemed; absent while none.
    var redeemedWinBackOffers: [String]?

    init(_ record: AccountRecord) {
        devices = record.devices
        introductoryOfferUsedGroups = record.introductoryOfferUsedGroups.sorted()
        declinedPurchases = record.declinedPurchases
        refundRequests = record.refundRequests.isEmpty ? nil : record.refundRequests
        consumption = record.consumption.isEmpty ? nil : record.consumption
        purchaseIntents = record.purchaseIntents.isEmpty ? nil : record.purchaseIntents
        messages = record.messages.isEmpty ? nil : record.messages
        sheetCalls = record.sheetCalls.isEmpty ? nil : record.sheetCalls
        redeemedWinBackOffers = record.redeemedWinBackOffers.isEmpty ? nil : record.redeemedWinBackOffers.sorted()
    }
}

extension Sandbox {
    /// The store-wide part.
    var header: SandboxHeader {
        SandboxHeader(catalog: catalog, configuration: configuration, now: now, settings: settings,
                      environment: environment, pending: pending, resolvedPurchases: resolvedPurchases.sorted(),
                      nextTransactionNumber: nextTransactionNumber, nextWebOrderNumber: nextWebOrderNumber,
                      nextPurchaseNumber: nextPurchaseNumber, nextDeliverySequence: nextDeliverySequence,
                      massExtensions: massExtensions.isEmpty ? nil : massExtensions, catalogSource: catalogSource,
                      usedOfferNonces: usedOfferNonces.isEmpty ? nil : usedOfferNonces,
                      offerCodes: offerCodes.isEmpty ? nil : offerCodes)
    }

    /// A sandbox put together from its stored parts: the header, the accounts read (all, or the few a change
    /// touches), the events read and how many events the log held before them.
    init(header: SandboxHeader, accounts: [String: AccountRecord], events: [SandboxEvent], eventBase: Int) {
        catalog = header.catalog
        configuration = header.configuration
        now = header.now
        settings = header.settings
        environment = header.environment
        pending = header.pending
        resolvedPurchases = Set(header.resolvedPurchases)
        nextTransactionNumber = header.nextTransactionNumber
        nextWebOrderNumber = header.nextWebOrderNumber
        nextPurchaseNumber = header.nextPurchaseNumber
        nextDeliverySequence = header.nextDeliverySequence
        massExtensions = header.massExtensions ?? []
        catalogSource = header.catalogSource
        usedOfferNonces = header.usedOfferNonces ?? [:]
        offerCodes = header.offerCodes ?? []
        self.accounts = accounts
        self.events = events
        self.eventBase = eventBase
        productIndex = IndexedProduct.index(catalog)
        for (account, record) in accounts {
            for transaction in record.transactions { transactionAccounts[transaction.transactionId] = account }
        }
    }
}
