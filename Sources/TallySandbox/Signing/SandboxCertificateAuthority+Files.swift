import Foundation
import TallyCrypto

extension SandboxCertificateAuthority {
    /// Where the authority lives inside the sandbox's data directory.
    public enum FileName {
        /// The root certificate.
        public static let root = "ca/root.pem"
        /// The intermediate certificate.
        public static let intermediate = "ca/intermediate.pem"
        /// The leaf (signing) certificate.
        public static let leaf = "ca/leaf.pem"
        /// The leaf's private key (mode 0600).
        public static let leafKey = "ca/leaf-key.pem"
        /// The root's private key (mode 0600); kept, not needed to sign.
        public static let rootKey = "ca/root-key.pem"
        /// The intermediate's private key (mode 0600); kept, not needed to sign.
        public static let intermediateKey = "ca/intermediate-key.pem"
    }

    /// Loads the authority a previous ``write(to:)`` stored under `directory` (the sandbox data directory).
    ///
    /// Checks that each file parses, that the leaf key belongs to the leaf, and that leaf ← intermediate
    /// ← root signatures hold; the error names the first file that is missing or wrong.
    public init(directory: URL) throws(SigningError) {
        let files = AuthorityFiles(directory: directory)
        let root = try AuthorityPEM.certificate(try files.read(FileName.root), file: files.path(FileName.root))
        let intermediate = try AuthorityPEM.certificate(
            try files.read(FileName.intermediate), file: files.path(FileName.intermediate))
        let leaf = try AuthorityPEM.certificate(try files.read(FileName.leaf), file: files.path(FileName.leaf))
        let leafKey = try AuthorityPEM.privateKey(try files.read(FileName.leafKey), file: files.path(FileName.leafKey))
        let rootKey = try files.readIfPresent(FileName.rootKey).map { data throws(SigningError) in
            try AuthorityPEM.privateKey(data, file: files.path(FileName.rootKey))
        }
        let intermediateKey = try files.readIfPresent(FileName.intermediateKey).map { data throws(SigningError) in
            try AuthorityPEM.privateKey(data, file: files.path(FileName.intermediateKey))
        }
        guard leaf.matches(leafKey) else {
            throw files.mismatch(FileName.leafKey, "is not the private key of \(files.path(FileName.leaf))")
        }
        guard leaf.isSigned(by: intermediate) else {
            throw files.mismatch(FileName.leaf, "was not issued by \(files.path(FileName.intermediate))")
        }
        guard intermediate.isSigned(by: root) else {
            throw files.mismatch(FileName.intermediate, "was not issued by \(files.path(FileName.root))")
        }
        try self = SigningError.openSSL { () throws(CryptoError) in
            try SandboxCertificateAuthority(root: root, intermediate: intermediate, leaf: leaf,
                                            leafKey: leafKey, rootKey: rootKey, intermediateKey: intermediateKey)
        }
    }

    /// Stores the certificates (0644) and private keys (0600) under `directory`/ca/, each file
    /// replaced atomically (temporary file, fsync, rename).
    public func write(to directory: URL) throws(SigningError) {
        let files = AuthorityFiles(directory: directory)
        try files.write(rootPEM, to: FileName.root, secret: false)
        try files.write(intermediatePEM, to: FileName.intermediate, secret: false)
        try files.write(leafPEM, to: FileName.leaf, secret: false)
        try files.write(leafKeyPEM, to: FileName.leafKey, secret: true)
        if let rootKeyPEM { try files.write(rootKeyPEM, to: FileName.rootKey, secret: true) }
        if let intermediateKeyPEM { try files.write(intermediateKeyPEM, to: FileName.intermediateKey, secret: true) }
    }

    /// The authority stored under `directory`, or a new one generated at `now` and written there
    /// when `directory` has no `ca/root.pem` yet. A damaged authority is an error, never replaced.
    public static func loadOrGenerate(in directory: URL, now: Date) throws(SigningError) -> SandboxCertificateAuthority {
        let files = AuthorityFiles(directory: directory)
        guard files.exists(FileName.root) else {
            let authority = try generate(now: now)
            try authority.write(to: directory)
            return authority
        }
        return try SandboxCertificateAuthority(directory: directory)
    }
}
