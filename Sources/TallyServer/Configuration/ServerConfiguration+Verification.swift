import Foundation
import TallyCore
import TallyVerify

extension ServerConfiguration {
    static let verificationKeys = ["bundleId", "appAppleId", "environments", "roots", "receiptRoots", "onlineChecks"]
    static let knownEnvironments: [Environment] = [.production, .sandbox, .xcode, .localTesting]

    static func loadVerification(_ node: JSONNode?, bundleId appBundleId: String?,
                                 reader: inout ConfigurationReader) -> VerificationSettings? {
        let members = node.flatMap { reader.object($0, "verification", allowed: verificationKeys) } ?? [:]
        let bundleId = members["bundleId"].flatMap { reader.string($0, "verification.bundleId") } ?? appBundleId
        let appAppleId = members["appAppleId"].flatMap {
            reader.integer($0, "verification.appAppleId", in: 1...Int64.max)
        }
        var environments: [Environment] = [.production]
        if let node = members["environments"], let elements = reader.array(node, "verification.environments") {
            environments = []
            for (index, element) in elements.enumerated() {
                let path = "verification.environments[\(index)]"
                guard let name = reader.string(element, path) else { continue }
                let environment = Environment(rawValue: name)
                if !knownEnvironments.contains(environment) {
                    reader.problem(path, "\"\(name)\" is not an environment; use Production, Sandbox, Xcode or LocalTesting")
                } else if environments.contains(environment) {
                    reader.problem(path, "\"\(name)\" is listed twice")
                } else {
                    environments.append(environment)
                }
            }
            if elements.isEmpty { reader.problem("verification.environments", "must name at least one environment") }
        }
        if environments.contains(.production), appAppleId == nil, members["appAppleId"] == nil {
            reader.problem("verification.appAppleId",
                           "is required when environments has Production: your app's Apple id from App Store Connect")
        }
        let roots = members["roots"].map { loadRoots($0, "verification.roots", reader: &reader) }
        let receiptRoots = members["receiptRoots"].map { loadRoots($0, "verification.receiptRoots", reader: &reader) }
        let onlineChecks = members["onlineChecks"].flatMap { reader.bool($0, "verification.onlineChecks") } ?? false
        guard let bundleId else { return nil }
        return VerificationSettings(
            bundleId: bundleId, appAppleId: appAppleId, environments: environments,
            roots: roots ?? [AppleRootCertificates.appleRootCAG3],
            receiptRoots: receiptRoots ?? VerificationSettings.appleReceiptRoots, onlineChecks: onlineChecks)
    }

    /// Certificates from DER or PEM files.
    private static func loadRoots(_ node: JSONNode, _ path: String, reader: inout ConfigurationReader) -> [Certificate] {
        guard let elements = reader.array(node, path) else { return [] }
        if elements.isEmpty { reader.problem(path, "must name at least one certificate file") }
        var certificates: [Certificate] = []
        for (index, element) in elements.enumerated() {
            let elementPath = "\(path)[\(index)]"
            guard let file = reader.file(element, elementPath) else { continue }
            let parsed = Certificate.parseAll(file.data)
            if parsed.isEmpty {
                reader.problem(elementPath, "\(file.url.lastPathComponent) is not a DER or PEM certificate")
            }
            certificates += parsed
        }
        return certificates
    }
}
