import Foundation
import TallyCore
import TallyVerify

extension ServerConfiguration {
    static let verificationKeys = ["bundleId", "appAppleId", "environments", "roots", "receiptRoots", "onlineChecks"]
    static let knownEnvironments: [StoreEnvironment] = [.production, .sandbox, .xcode, .localTesting]

    static func loadVerification(_ node: JSONCursor?, bundleId appBundleId: String?,
                                 reader: inout ConfigurationReader) -> VerificationSettings? {
        let members = node.flatMap { reader.object($0, allowed: verificationKeys) } ?? [:]
        let bundleId = members["bundleId"].flatMap { reader.string($0) } ?? appBundleId
        let appAppleId = members["appAppleId"].flatMap {
            reader.integer($0, in: 1...Int64.max)
        }
        var environments: [StoreEnvironment] = [.production]
        if let node = members["environments"], let elements = reader.array(node) {
            environments = []
            for element in elements {
                let path = element.path
                guard let name = reader.string(element) else { continue }
                let environment = StoreEnvironment(rawValue: name)
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
        let roots = members["roots"].map { loadRoots($0, reader: &reader) }
        let receiptRoots = members["receiptRoots"].map { loadRoots($0, reader: &reader) }
        let onlineChecks = members["onlineChecks"].flatMap { reader.bool($0) } ?? false
        guard let bundleId else { return nil }
        return VerificationSettings(
            bundleId: bundleId, appAppleId: appAppleId, environments: environments,
            roots: roots ?? [AppleRootCertificates.appleRootCAG3],
            receiptRoots: receiptRoots ?? VerificationSettings.appleReceiptRoots, onlineChecks: onlineChecks)
    }

    /// Certificates from DER or PEM files.
    private static func loadRoots(_ node: JSONCursor, reader: inout ConfigurationReader) -> [Certificate] {
        guard let elements = reader.array(node) else { return [] }
        if elements.isEmpty { reader.problem(node.path, "must name at least one certificate file") }
        var certificates: [Certificate] = []
        for element in elements {
            guard let file = reader.file(element) else { continue }
            let parsed = Certificate.parseAll(file.data)
            if parsed.isEmpty {
                reader.problem(element.path, "\(file.url.lastPathComponent) is not a DER or PEM certificate")
            }
            certificates += parsed
        }
        return certificates
    }
}
