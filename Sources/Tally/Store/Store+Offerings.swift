import Foundation
import TallyCore

extension Store {
    /// The offerings the app's server decided for `placement` and this customer (`GET /v1/offerings`, with the
    /// backend's storefront and the link's ``ServerLink/appVersion``), each package with its ``StoreProduct``
    /// (localized by ``products(_:)``). Never throws:
    /// - the server's answer (``OfferingsSource/server``) is kept in `offerings-cache.json` with its `ETag`,
    ///   sent back as `If-None-Match`; a `304` answers the kept copy, as the server's;
    /// - while the server cannot be reached (or answers what does not decode), the kept answer for this server,
    ///   customer and placement (``OfferingsSource/cache``, ``StoreOfferings/problem`` says why);
    /// - with neither, or without a ``ServerLink``, the bundled catalog: one offering `bundled` with a package
    ///   for each of its products (``OfferingsSource/bundled``).
    ///
    /// Packages whose product the store does not know are left out (``StoreOfferings/skippedPackages``) and
    /// reported once in ``diagnostics``. An answer that differs from the last one given for the placement is
    /// also emitted as ``StoreEvent/offeringsChanged(_:)``; ``refresh()`` asks again for every placement asked.
    public func offerings(placement: String? = nil) async -> StoreOfferings {
        let answer = await askOfferings(placement: placement)
        // After a switch during the request, the answer is the new customer's kept one (see askOfferings).
        let customerId = serverLink?.appUserId
        if let before = offeringsMemory.remember(answer, for: customerId), !answer.showsSame(as: before) {
            emit([.offeringsChanged(answer)])
        }
        return answer
    }

    /// The offerings for `placement` without asking the server: the last answer given in this process to this
    /// customer, else the one kept in `offerings-cache.json` for this server and customer (``OfferingsSource/cache``; at cold start,
    /// before the network answers), else the bundled catalog.
    public func cachedOfferings(placement: String? = nil) async -> StoreOfferings {
        if let shown = offeringsMemory.last(OfferingsMemory.key(placement), for: serverLink?.appUserId) {
            return shown
        }
        if let (entry, answer) = keptOfferings(placement: placement) {
            return await storeOfferings(answer, placement: placement, source: .cache, answeredAt: entry.savedAt)
        }
        return await bundledOfferings(placement: placement, problem: nil)
    }

    /// At ``refresh()``: asks again for every placement asked before (not sooner than the link's
    /// ``ServerLink/offeringsRefreshInterval``), so an offering changed on the server shows without a restart.
    func refreshOfferings() async {
        guard server != nil, !isClosed else { return }
        let interval = serverLink?.offeringsRefreshInterval ?? 0
        for key in Array(offeringsMemory.shown.keys) where !offeringsMemory.askedRecently(key, within: interval) {
            _ = await offerings(placement: key?.string)
        }
    }

    /// The server's answer, the kept one, or the bundled catalog (see ``offerings(placement:)``).
    private func askOfferings(placement: String?) async -> StoreOfferings {
        guard let server, let link = serverLink, !isClosed else {
            return await bundledOfferings(placement: placement, problem: nil)
        }
        let kept = keptOfferings(placement: placement)
        let customerId = link.appUserId
        offeringsMemory.askedAt[OfferingsMemory.key(placement)] = OfferingsMemory.now
        let fetch = await server.offerings(placement: placement, storefront: await backend.storefront,
                                           appVersion: link.appVersion, etag: kept?.entry.etag)
        // A customer switched while the request ran: its answer was chosen for the one before.
        guard isCurrentCustomer(customerId) else { return await cachedOfferings(placement: placement) }
        let now = Date()
        switch fetch {
        case .answer(let answer, let body, let etag):
            keepOfferings(OfferingsCache.Entry(serverURL: link.url.absoluteString, appUserId: customerId,
                                               placement: placement, etag: etag, savedAt: now, body: body))
            return await storeOfferings(answer, placement: placement, source: .server, answeredAt: now)
        case .notModified:
            guard let kept else { return await bundledOfferings(placement: placement, problem: nil) }
            return await storeOfferings(kept.answer, placement: placement, source: .server, answeredAt: now)
        case .failed(let problem):
            if offeringsMemory.last(OfferingsMemory.key(placement), for: customerId)?.problem == nil {
                report(StoreDiagnostic(.offeringsUnavailable, "the server's offerings for placement "
                    + "\(placement.map { "'\($0)'" } ?? "(none)") could not be read (\(problem)); showing "
                    + (kept.map { "the answer kept from \($0.entry.savedAt)" } ?? "the bundled catalog")))
            }
            guard let kept else { return await bundledOfferings(placement: placement, problem: problem) }
            return await storeOfferings(kept.answer, placement: placement, source: .cache,
                                        answeredAt: kept.entry.savedAt, problem: problem)
        }
    }

    /// The answer kept for the link's server and customer and `placement`, read again; nil when none is kept or
    /// it no longer reads.
    private func keptOfferings(placement: String?) -> (entry: OfferingsCache.Entry, answer: OfferingsAnswer)? {
        guard let link = serverLink else { return nil }
        if offeringsMemory.cache == nil {
            let (cache, problem) = OfferingsCache.read(in: directory)
            offeringsMemory.cache = cache
            if let problem { report(StoreDiagnostic(.offeringsCacheUnusable, problem)) }
        }
        guard let entry = offeringsMemory.cache?.entry(server: link.url, appUserId: link.appUserId,
                                                      placement: placement),
              let answer = try? OfferingsAnswer(jsonData: Data(entry.body.utf8)) else { return nil }
        return (entry, answer)
    }

    /// Keeps `entry` in memory and in `offerings-cache.json`; a failed write is reported (the answer is kept in
    /// memory and written again with the next one).
    private func keepOfferings(_ entry: OfferingsCache.Entry) {
        var cache = offeringsMemory.cache ?? OfferingsCache()
        cache.set(entry)
        offeringsMemory.cache = cache
        do { try cache.write(in: directory) } catch {
            report(StoreDiagnostic(.offeringsCacheUnusable, "the server's offerings could not be kept for offline "
                + "use (\(error.message)); they are written again with the server's next answer"))
        }
    }

    /// `answer` with each package's product, packages of products the store does not know left out.
    private func storeOfferings(_ answer: OfferingsAnswer, placement: String?, source: OfferingsSource,
                                answeredAt: Date?, problem: ServerProblem? = nil) async -> StoreOfferings {
        var ids: [String] = []
        var seen = Set<UTF8Key>()
        for offering in answer.offerings {
            for package in offering.packages where seen.insert(UTF8Key(package.productId)).inserted {
                ids.append(package.productId)
            }
        }
        let known = await knownProducts(ids)
        var skipped: [SkippedPackage] = []
        let all = answer.offerings.map { offering in
            StoreOffering(id: offering.id, description: offering.description, metadata: offering.metadata,
                          packages: offering.packages.compactMap { package in
                guard let product = known[UTF8Key(package.productId)] else {
                    skipped.append(SkippedPackage(offeringId: offering.id, packageId: package.id,
                                                  productId: package.productId))
                    return nil
                }
                return StorePackage(id: package.id, product: product, metadata: package.metadata)
            })
        }
        reportSkipped(skipped)
        let current = answer.current.flatMap { id in all.first { $0.id.hasSameBytes(as: id) } }
        return StoreOfferings(current: current, all: all, placement: placement, version: answer.version,
                              experiment: answer.experiment, source: source, skippedPackages: skipped,
                              answeredAt: answeredAt, problem: problem)
    }

    /// The fallback of last resort: one offering, `bundled`, of every product of the app's catalog the store
    /// knows, in the catalog's order.
    private func bundledOfferings(placement: String?, problem: ServerProblem?) async -> StoreOfferings {
        let known = await knownProducts(catalog.products.map(\.id))
        var skipped: [SkippedPackage] = []
        let packages = catalog.products.compactMap { product -> StorePackage? in
            guard let shown = known[UTF8Key(product.id)] else {
                skipped.append(SkippedPackage(offeringId: StoreOffering.bundledId, packageId: product.id,
                                              productId: product.id))
                return nil
            }
            return StorePackage(id: product.id, product: shown)
        }
        reportSkipped(skipped)
        let offering = StoreOffering(id: StoreOffering.bundledId, description: "every product of the app's catalog",
                                     metadata: .object([:]), packages: packages)
        return StoreOfferings(current: offering, all: [offering], placement: placement, version: nil,
                              experiment: nil, source: .bundled, skippedPackages: skipped, problem: problem)
    }

    /// The store's products among `ids` (``products(_:)``); while the backend cannot answer, the catalog's own
    /// names and prices for the ids it has.
    private func knownProducts(_ ids: [String]) async -> [UTF8Key: StoreProduct] {
        let found: [StoreProduct]
        do {
            found = try await products(ids).products
        } catch {
            let wanted = Set(ids.map(UTF8Key.init))
            found = catalog.products.filter { wanted.contains(UTF8Key($0.id)) }
                .map { StoreProduct($0, locale: locale) }
        }
        var known: [UTF8Key: StoreProduct] = [:]
        for product in found where known[UTF8Key(product.id)] == nil { known[UTF8Key(product.id)] = product }
        return known
    }

    /// Reports each skipped package once per process.
    private func reportSkipped(_ skipped: [SkippedPackage]) {
        for package in skipped where offeringsMemory.reportedSkips.insert(package).inserted {
            report(StoreDiagnostic(.offeringPackageSkipped, "package '\(package.packageId)' of offering "
                + "'\(package.offeringId)' names \(package.productId), which the store does not sell; it is left "
                + "out of the offerings shown"))
        }
    }
}
