import Foundation

extension OfferingsDocument {
    /// The document's top-level keys; any other is an error, so a typo is never ignored.
    public static let jsonKeys = ["current", "offerings", "placements", "targeting", "entitlements", "currencies",
                                  "nonRenewingDurations"]

    /// Reads a document (docs/offerings.md) strictly: unknown keys, wrong types, empty or over-long ids, ids given
    /// twice, percentages that are not a split of 100 and limits passed are ``TallyError/Code/invalidOfferings``
    /// errors naming the JSON path. References (an offering a placement names) are checked by ``validate(against:bundleId:)``.
    public init(jsonData data: Data, fileName: String = "offerings") throws(TallyError) {
        do {
            try self.init(root: JSONCursor.document(from: data, fileName: fileName,
                                                    expected: "an object with \(Self.jsonKeys.joined(separator: ", "))"))
        } catch {
            throw error.code == .invalidOfferings ? error : TallyError(.invalidOfferings, error.message)
        }
    }

    /// ``init(jsonData:fileName:)`` for a document already parsed (a request body read by a stricter reader).
    public init(root: JSONCursor) throws(TallyError) {
        do {
            try Self.rejectUnknown(root, keys: Self.jsonKeys)
            let reader = OfferingsReader()
            let mapping = AppConfigurationReader()
            self.init(current: try root.optional("current").map { (c) throws(TallyError) in try reader.id(c) },
                      offerings: try reader.offerings(root.optional("offerings")),
                      placements: try reader.placements(root.optional("placements")),
                      targeting: try reader.rules(root.optional("targeting")),
                      entitlements: try mapping.entitlements(root.optional("entitlements")),
                      currencies: try mapping.currencies(root.optional("currencies")),
                      nonRenewingDurations: try mapping.durations(root.optional("nonRenewingDurations")))
        } catch {
            throw error.code == .invalidOfferings ? error : TallyError(.invalidOfferings, error.message)
        }
    }

    static func rejectUnknown(_ object: JSONCursor, keys: [String]) throws(TallyError) {
        for (key, value) in try object.members() where !keys.contains(key) {
            throw value.failure("is not a key here; the keys are \(keys.joined(separator: ", "))", code: .invalidOfferings)
        }
    }
}

/// Reads the parts of an offerings document.
struct OfferingsReader {
    func id(_ cursor: JSONCursor) throws(TallyError) -> String {
        let text = try cursor.string()
        guard !text.isEmpty else { throw cursor.failure("is empty; expected an id", code: .invalidOfferings) }
        guard text.utf8.count <= OfferingsLimits.maxIdBytes else {
            throw cursor.failure("is \(text.utf8.count) bytes; an id is at most \(OfferingsLimits.maxIdBytes)",
                                 code: .invalidOfferings)
        }
        return text
    }

    func object(_ cursor: JSONCursor) throws(TallyError) -> JSONTree {
        guard case .object = cursor.tree else {
            throw cursor.failure("is \(cursor.tree.typeName); expected an object", code: .invalidOfferings)
        }
        return cursor.tree
    }

    func limited(_ cursor: JSONCursor?, max: Int, what: String) throws(TallyError) -> [JSONCursor] {
        guard let cursor else { return [] }
        let elements = try cursor.elements()
        guard elements.count <= max else {
            throw cursor.failure("has \(elements.count) \(what); the limit is \(max)", code: .invalidOfferings)
        }
        return elements
    }

    func unique(_ ids: [(String, JSONCursor)], what: String) throws(TallyError) {
        var seen = Set<[UInt8]>()
        for (id, cursor) in ids where !seen.insert(Array(id.utf8)).inserted {
            throw cursor.failure("repeats the \(what) id \(id)", code: .invalidOfferings)
        }
    }

    func offerings(_ list: JSONCursor?) throws(TallyError) -> [Offering] {
        var result: [Offering] = [], ids: [(String, JSONCursor)] = []
        for entry in try limited(list, max: OfferingsLimits.maxOfferings, what: "offerings") {
            try OfferingsDocument.rejectUnknown(entry, keys: ["id", "description", "metadata", "packages"])
            let idKey = try entry.required("id")
            let offering = Offering(
                id: try id(idKey), description: try entry.optional("description")?.string() ?? "",
                metadata: try entry.optional("metadata").map { (m) throws(TallyError) in try object(m) } ?? .object([:]),
                packages: try packages(entry.optional("packages")))
            ids.append((offering.id, idKey))
            result.append(offering)
        }
        try unique(ids, what: "offering")
        return result
    }

    func packages(_ list: JSONCursor?) throws(TallyError) -> [OfferingPackage] {
        var result: [OfferingPackage] = [], ids: [(String, JSONCursor)] = []
        for entry in try limited(list, max: OfferingsLimits.maxPackages, what: "packages") {
            try OfferingsDocument.rejectUnknown(entry, keys: ["id", "productId", "metadata"])
            let idKey = try entry.required("id")
            let package = OfferingPackage(
                id: try id(idKey), productId: try id(entry.required("productId")),
                metadata: try entry.optional("metadata").map { (m) throws(TallyError) in try object(m) })
            ids.append((package.id, idKey))
            result.append(package)
        }
        try unique(ids, what: "package")
        return result
    }

    func placements(_ map: JSONCursor?) throws(TallyError) -> [String: String] {
        guard let map else { return [:] }
        let members = try map.members()
        guard members.count <= OfferingsLimits.maxPlacements else {
            throw map.failure("has \(members.count) placements; the limit is \(OfferingsLimits.maxPlacements)",
                              code: .invalidOfferings)
        }
        var result: [String: String] = [:]
        for (key, value) in members {
            _ = try id(JSONCursor(tree: .string(key), path: value.path, file: value.file))
            result[key] = try id(value)
        }
        return result
    }

    func rules(_ list: JSONCursor?) throws(TallyError) -> [TargetingRule] {
        var result: [TargetingRule] = [], ids: [(String, JSONCursor)] = []
        for entry in try limited(list, max: OfferingsLimits.maxRules, what: "rules") {
            try OfferingsDocument.rejectUnknown(
                entry, keys: ["id", "placement", "storefronts", "appVersion", "offering", "experiment"])
            let idKey = try entry.required("id")
            let rule = TargetingRule(
                id: try id(idKey), placement: try entry.optional("placement").map { (p) throws(TallyError) in try id(p) },
                storefronts: try storefronts(entry.optional("storefronts")),
                appVersion: try versions(entry.optional("appVersion")), pick: try pick(entry))
            ids.append((rule.id, idKey))
            result.append(rule)
        }
        try unique(ids, what: "rule")
        return result
    }

    func storefronts(_ list: JSONCursor?) throws(TallyError) -> [String]? {
        guard let list else { return nil }
        return try limited(list, max: OfferingsLimits.maxStorefronts, what: "storefronts").map { (entry) throws(TallyError) in
            let code = try entry.string()
            guard code.utf8.count == 3, code.utf8.allSatisfy({ (0x41...0x5A).contains($0) }) else {
                throw entry.failure("is '\(code)'; expected an ISO 3166-1 alpha-3 code such as USA",
                                    code: .invalidOfferings)
            }
            return code
        }
    }

    func versions(_ range: JSONCursor?) throws(TallyError) -> AppVersionRange? {
        guard let range else { return nil }
        try OfferingsDocument.rejectUnknown(range, keys: ["min", "max"])
        func version(_ key: String) throws(TallyError) -> AppVersionNumber? {
            guard let cursor = try range.optional(key) else { return nil }
            let text = try cursor.string()
            guard let number = AppVersionNumber(text) else {
                throw cursor.failure("is '\(text)'; expected a version such as 2.1", code: .invalidOfferings)
            }
            return number
        }
        let result = AppVersionRange(min: try version("min"), max: try version("max"))
        if let low = result.min, let high = result.max, high < low {
            throw range.failure("has max \(high) below min \(low)", code: .invalidOfferings)
        }
        return result
    }

    func pick(_ rule: JSONCursor) throws(TallyError) -> TargetingPick {
        switch (try rule.optional("offering"), try rule.optional("experiment")) {
        case (let offering?, nil): return .offering(try id(offering))
        case (nil, let experiment?):
            try OfferingsDocument.rejectUnknown(experiment, keys: ["arms"])
            let armsKey = try experiment.required("arms")
            var arms: [ExperimentArm] = [], ids: [(String, JSONCursor)] = []
            for entry in try limited(armsKey, max: OfferingsLimits.maxArms, what: "arms") {
                try OfferingsDocument.rejectUnknown(entry, keys: ["id", "offering", "percent"])
                let idKey = try entry.required("id"), percentKey = try entry.required("percent")
                let percent = try percentKey.decimal()
                var points = percent * 100, whole = Decimal()
                NSDecimalRound(&whole, &points, 0, .plain)
                guard percent >= 0, percent <= 100, whole == percent * 100 else {
                    throw percentKey.failure("is \(percent); a share is a percentage from 0 with at most two decimals",
                                             code: .invalidOfferings)
                }
                let arm = ExperimentArm(id: try id(idKey), offering: try id(entry.required("offering")),
                                        basisPoints: NSDecimalNumber(decimal: whole).intValue)
                ids.append((arm.id, idKey))
                arms.append(arm)
            }
            try unique(ids, what: "arm")
            let total = arms.reduce(0) { $0 + $1.basisPoints }
            guard !arms.isEmpty, total == ExperimentBucket.count else {
                throw armsKey.failure("shares sum to \(Decimal(total) / 100)%; the arms of an experiment sum to 100%",
                                      code: .invalidOfferings)
            }
            return .experiment(arms)
        default:
            throw rule.failure("needs exactly one of offering and experiment", code: .invalidOfferings)
        }
    }
}
