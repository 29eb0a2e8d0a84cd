import Foundation
import TallyCore
import TallyCrypto

extension ServerConfiguration {
    static let appStoreServerAPIKeys = ["issuerId", "keyId", "privateKey", "environment", "baseURL",
                                        "backfillIntervalSeconds"]

    /// `appStoreServerAPI`: issuer id, key id, the private key file (PEM, P-256), the environment (one the
    /// server verifies) and an optional base URL; nil when absent.
    static func loadAppStoreServerAPI(_ node: JSONCursor?, verification: VerificationSettings?,
                                      reader: inout ConfigurationReader) -> AppStoreServerAPISettings? {
        guard let node, let members = reader.object(node, allowed: appStoreServerAPIKeys) else { return nil }
        func required(_ key: String) -> String? {
            guard let value = members[key] else {
                reader.problem("appStoreServerAPI.\(key)", "is required")
                return nil
            }
            guard let text = reader.string(value), !text.isEmpty else {
                if reader.problems.isEmpty { reader.problem("appStoreServerAPI.\(key)", "must be a non-empty string") }
                return nil
            }
            return text
        }
        let issuerId = required("issuerId"), keyId = required("keyId")
        var key: PrivateKey?
        if let value = members["privateKey"] {
            if let file = reader.file(value) {
                if let parsed = try? PrivateKey.parse(pemOrDER: file.data), parsed.publicKey?.isP256 == true {
                    key = parsed
                } else {
                    reader.problem("appStoreServerAPI.privateKey",
                                   "\(file.url.path) is not a P-256 private key (the .p8 file of an in-app purchase key)")
                }
            }
        } else {
            reader.problem("appStoreServerAPI.privateKey", "is required: the .p8 file of an in-app purchase key")
        }
        var environment = Environment.production
        if let value = members["environment"], let text = reader.string(value) {
            guard text == Environment.sandbox.rawValue || text == Environment.production.rawValue else {
                reader.problem("appStoreServerAPI.environment", "must be \"Sandbox\" or \"Production\", not \"\(text)\"")
                return nil
            }
            environment = Environment(rawValue: text)
        }
        if let verification, !verification.environments.contains(environment) {
            reader.problem("appStoreServerAPI.environment",
                           "\(environment.rawValue) is not among verification.environments, so its answers could not be verified")
        }
        var baseURL: URL?
        if let value = members["baseURL"], let text = reader.string(value) {
            guard let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
                reader.problem("appStoreServerAPI.baseURL", "must be an http(s) URL such as http://127.0.0.1:8090")
                return nil
            }
            baseURL = url
        }
        var interval: TimeInterval?
        if let value = members["backfillIntervalSeconds"], let seconds = reader.integer(value, in: 0...86_400) {
            interval = seconds > 0 ? TimeInterval(seconds) : nil
        }
        guard let issuerId, let keyId, let key else { return nil }
        return AppStoreServerAPISettings(issuerId: issuerId, keyId: keyId, privateKey: key, environment: environment,
                                         baseURL: baseURL, backfillInterval: interval)
    }
}
