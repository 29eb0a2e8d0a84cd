import Foundation
import TallyCrypto

/// Parses the authority's PEM files, naming the file and the way out in every error.
enum AuthorityPEM {
    /// The certificate in `data`, read from `file`.
    static func certificate(_ data: Data, file: String) throws(SigningError) -> Certificate {
        do {
            return try Certificate.fromPEM(data)
        } catch {
            throw corrupt(file, "does not hold a PEM certificate (\(error.description))")
        }
    }

    /// The EC P-256 private key in `data`, read from `file`.
    static func privateKey(_ data: Data, file: String) throws(SigningError) -> PrivateKey {
        let key: PrivateKey
        do {
            key = try PrivateKey.parse(pemOrDER: data)
        } catch {
            throw corrupt(file, "does not hold a PEM private key (\(error.description))")
        }
        guard key.isP256 else {
            throw SigningError(.corruptFile, "\(file) holds a private key that is not EC P-256", path: file)
        }
        return key
    }

    private static func corrupt(_ file: String, _ problem: String) -> SigningError {
        SigningError(.corruptFile, "\(file) \(problem); "
            + "delete the sandbox's ca/ directory to create a new certificate authority", path: file)
    }
}
