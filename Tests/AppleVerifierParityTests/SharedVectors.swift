import Foundation
import TallyCore
import TallySignedData

/// Every JWS case in `../shared/vectors`: Apple's real signed data (verbatim, reconstructed, negative) and the
/// signed data of Apple's app-store-server-library tests (mock_signed_data and Xcode's, for each language).
enum SharedVectors {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// `<package root>/../shared/vectors`, or the nearest ancestor's `shared/vectors`.
    static let directory: URL = {
        var directory = packageRoot.deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("shared/vectors")
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared/vectors")
    }()

    /// A vector file: its path below `vectors/` and its text.
    struct File: Sendable {
        var name: String
        var jws: String
    }

    /// Every JWS file, sorted by path.
    static let files: [File] = {
        let fm = FileManager.default
        var found: [File] = []
        func add(_ url: URL) {
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { return }
            let name = url.path.replacingOccurrences(of: directory.path + "/", with: "")
            found.append(File(name: name, jws: text.trimmingCharacters(in: .whitespacesAndNewlines)))
        }
        for folder in ["apple-real/jws", "apple-real/jws-reconstructed", "apple-real/negative"] {
            let url = directory.appendingPathComponent(folder)
            for file in (try? fm.contentsOfDirectory(atPath: url.path)) ?? []
            where file.hasSuffix(".jws") || file.hasSuffix(".txt") {
                add(url.appendingPathComponent(file))
            }
        }
        let library = directory.appendingPathComponent("apple-server-library")
        if let walker = fm.enumerator(at: library, includingPropertiesForKeys: nil) {
            for case let url as URL in walker {
                let parent = url.deletingLastPathComponent().lastPathComponent
                if parent == "mock_signed_data" || (parent == "xcode" && url.lastPathComponent.hasPrefix("xcode-signed-")) {
                    add(url)
                }
            }
        }
        return found.sorted { $0.name < $1.name }
    }()

    /// Apple Root CA - G3 and the test CA of Apple's library tests, the roots every case is judged against.
    static let roots: [Data] = {
        let testCA = directory.appendingPathComponent("apple-server-library/python/tests/resources/certs/testCA.der")
        return [AppleSignedData.appleRootCAG3DER] + [try? Data(contentsOf: testCA)].compactMap { $0 }
    }()

    /// The bundle id a payload names (unverified), or `com.example`.
    static func bundleId(_ jws: String) -> String {
        guard case .success(let parts) = CompactJWS.split(jws), let bytes = Base64URL.decode(parts.payload),
              case .object(let payload)? = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes))
        else { return "com.example" }
        if case .string(let value)? = payload["bundleId"] { return value }
        for key in ["data", "summary", "appData"] {
            if case .object(let nested)? = payload[key], case .string(let value)? = nested["bundleId"] { return value }
        }
        return "com.example"
    }

    /// Each file as every kind, in each environment, for the bundle id it names and for another.
    static let cases: [ParityCase] = files.flatMap { file in
        SignedPayloadKind.allCases.flatMap { kind in
            [StoreEnvironment.sandbox, .production, .xcode].flatMap { environment in
                [bundleId(file.jws), "com.example.other"].map { bundleId in
                    ParityCase(name: file.name, jws: file.jws, kind: kind, environment: environment,
                               bundleId: bundleId, roots: roots)
                }
            }
        }
    }
}
