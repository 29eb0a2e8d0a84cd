import Foundation
import TallyCore
import TallyCrypto

extension ServerConfiguration {
    static let appStoreServerAPIKeys = ["issuerId", "keyId", "privateKey", "environment", "baseURL",
                                        "backfillIntervalSeconds", "consumptionInformation"]

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
        var environment = StoreEnvironment.production
        if let value = members["environment"], let text = reader.string(value) {
            guard text == StoreEnvironment.sandbox.rawValue || text == StoreEnvironment.production.rawValue else {
                reader.problem("appStoreServerAPI.environment", "must be \"Sandbox\" or \"Production\", not \"\(text)\"")
                return nil
            }
            environment = StoreEnvironment(rawValue: text)
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
        let consumption = members["consumptionInformation"].flatMap { loadConsumption($0, reader: &reader) }
        guard let issuerId, let keyId, let key else { return nil }
        return AppStoreServerAPISettings(issuerId: issuerId, keyId: keyId, privateKey: key, environment: environment,
                                         baseURL: baseURL, backfillInterval: interval, consumption: consumption)
    }

    /// `appStoreServerAPI.consumptionInformation`: `customerConsented` (required, must be true),
    /// `sampleContentProvided` (default false), `refundPreference` (optional, one of Apple's three).
    static func loadConsumption(_ node: JSONCursor, reader: inout ConfigurationReader) -> ConsumptionSettings? {
        let path = "appStoreServerAPI.consumptionInformation"
        guard let members = reader.object(node, allowed: ["customerConsented", "sampleContentProvided", "refundPreference", "version"])
        else { return nil }
        let consented = members["customerConsented"].map { reader.bool($0) }
        guard consented == .some(true) else {
            if consented == .some(nil) { return nil }  // not a boolean: already reported
            reader.problem("\(path).customerConsented", "must be true: Apple takes consumption information only with the "
                + "customer's consent; leave consumptionInformation out to not answer CONSUMPTION_REQUEST")
            return nil
        }
        var settings = ConsumptionSettings()
        if let value = members["sampleContentProvided"] {
            guard let flag = reader.bool(value) else { return nil }
            settings.sampleContentProvided = flag
        }
        if let value = members["version"] {
            guard let version = reader.integer(value, in: 1...2) else { return nil }
            settings.version = Int(version)
        }
        if let value = members["refundPreference"] {
            guard let text = reader.string(value) else { return nil }
            guard ConsumptionSettings.refundPreferences.contains(text) else {
                reader.problem("\(path).refundPreference", "must be DECLINE, GRANT_FULL or GRANT_PRORATED, not \"\(text)\"")
                return nil
            }
            settings.refundPreference = text
        }
        return settings
    }
}
