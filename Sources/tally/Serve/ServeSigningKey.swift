import Foundation
import TallyCrypto

/// `tally serve signing-key --out FILE`: a new P-256 signing key for `signing.privateKeyFile`, written as PKCS#8
/// PEM (mode 0600, never over an existing file), and its public key for the app's `ServerLink.serverPublicKey`.
enum ServeSigningKey {
    static func run(_ words: [String]) throws -> Int32 {
        let arguments = try Arguments(words, flags: [], options: ["out"])
        if let extra = arguments.positionals.first { throw UsageError("unexpected argument '\(extra)'") }
        guard let out = arguments.value("out"), !out.isEmpty else { throw UsageError("missing --out FILE") }
        let key = try PrivateKey.newP256()
        guard let spki = key.publicKey?.spki, spki.count == 91 else {
            throw UsageError("OpenSSL made no P-256 public key")
        }
        let pem = try key.pem()
        let descriptor = open(out, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else {
            throw UsageError("cannot create \(out): \(String(cString: strerror(errno))) (an existing file is never replaced)")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        try handle.write(contentsOf: Data(pem.utf8))
        try handle.synchronize()
        let x963 = Array(spki.suffix(65))  // SubjectPublicKeyInfo's BIT STRING: 04 ‖ X ‖ Y
        print(try Output.json(Printed(privateKeyFile: out, publicKey: Data(spki).base64EncodedString(),
                                      publicKeyX963: Data(x963).base64EncodedString()), compact: true))
        return ExitCode.ok
    }

    private struct Printed: Encodable {
        var privateKeyFile: String
        /// SubjectPublicKeyInfo DER, base64.
        var publicKey: String
        /// ANSI x9.63 (uncompressed point), base64.
        var publicKeyX963: String
    }
}
