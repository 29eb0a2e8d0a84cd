import Foundation

/// What `GET /v1/offerings` answers (docs/server.md, *Offerings*): every offering of the live document and the one
/// chosen for the request's placement and customer. The engine reads it with ``init(jsonData:)``.
public struct OfferingsAnswer: Sendable, Hashable {
    /// The document version it was chosen from.
    public var version: Int64
    /// The id of the offering chosen for this placement and customer; nil: none.
    public var current: String?
    /// The placement asked for; nil: none.
    public var placement: String?
    /// The experiment arm the customer landed in, when an experiment chose ``current``.
    public var experiment: ExperimentAssignment?
    /// Every offering of the document, in its order.
    public var offerings: [Offering]

    /// Creates an answer.
    public init(version: Int64, current: String?, placement: String?, experiment: ExperimentAssignment?,
                offerings: [Offering]) {
        self.version = version
        self.current = current
        self.placement = placement
        self.experiment = experiment
        self.offerings = offerings
    }

    /// The offering with `id` (compared as bytes).
    public func offering(id: String) -> Offering? { offerings.first { $0.id.utf8.elementsEqual(id.utf8) } }

    /// The chosen offering; nil when none is.
    public var currentOffering: Offering? { current.flatMap(offering(id:)) }

    /// The answer as canonical JSON.
    public func jsonBytes() -> [UInt8] {
        var root: [String: JSONTree] = ["version": .number(Decimal(version)),
                                        "offerings": .array(offerings.map(OfferingsDocument.tree)),
                                        "current": current.map(JSONTree.string) ?? .null,
                                        "placement": placement.map(JSONTree.string) ?? .null,
                                        "experiment": .null]
        if let experiment {
            root["experiment"] = .object(["id": .string(experiment.id), "arm": .string(experiment.arm)])
        }
        return JSONTree.object(root).canonicalBytes()
    }

    /// Reads an answer (what ``jsonBytes()`` writes, and any server's answer with extra keys ignored); throws
    /// ``TallyError/Code/invalidPayload`` naming what is wrong.
    public init(jsonData data: Data) throws(TallyError) {
        do {
            let root = try JSONCursor.document(from: data, fileName: "offerings answer", expected: "an object")
            let reader = OfferingsReader()
            let version = try root.required("version").int()
            var experiment: ExperimentAssignment?
            if let entry = try root.optional("experiment") {
                experiment = ExperimentAssignment(id: try entry.required("id").string(),
                                                  arm: try entry.required("arm").string())
            }
            self.init(version: Int64(version), current: try root.optional("current")?.string(),
                      placement: try root.optional("placement")?.string(), experiment: experiment,
                      offerings: try reader.offerings(root.optional("offerings")))
        } catch {
            throw TallyError(.invalidPayload, error.message)
        }
    }
}

/// The experiment and arm that chose an answer's offering.
public struct ExperimentAssignment: Sendable, Hashable {
    /// The targeting rule's id.
    public var id: String
    /// The arm's id.
    public var arm: String

    /// Creates an assignment.
    public init(id: String, arm: String) {
        self.id = id
        self.arm = arm
    }
}

extension OfferingsDocument {
    /// The answer for `placement` and `context` at `version`: the first targeting rule that applies picks the
    /// offering (an experiment by the customer's ``ExperimentBucket``), else the placement's offering, else
    /// ``current``.
    public func answer(version: Int64, placement: String?, context: OfferingsContext) -> OfferingsAnswer {
        let (current, experiment) = choose(placement: placement, context: context)
        return OfferingsAnswer(version: version, current: current, placement: placement, experiment: experiment,
                               offerings: offerings)
    }

    /// The offering id chosen for `placement` and `context`, and the experiment arm that chose it.
    public func choose(placement: String?, context: OfferingsContext) -> (String?, ExperimentAssignment?) {
        for rule in targeting where rule.applies(placement: placement, context: context) {
            switch rule.pick {
            case .offering(let id): return (id, nil)
            case .experiment(let arms):
                guard let appUserId = context.appUserId,
                      let arm = ExperimentBucket.arm(of: arms, experimentId: rule.id, appUserId: appUserId) else { continue }
                return (arm.offering, ExperimentAssignment(id: rule.id, arm: arm.id))
            }
        }
        if let placement, let id = placements.first(where: { $0.key.utf8.elementsEqual(placement.utf8) })?.value {
            return (id, nil)
        }
        return (current, nil)
    }
}
