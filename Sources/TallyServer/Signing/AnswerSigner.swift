import Foundation
import TallyCore
import TallyCrypto
import TallyHTTP

/// Signs the answers that carry a customer state with the server's signing key (`signing.privateKeyFile`):
/// one ES256 signature per answer, the `Tally-Signature` header of ``AnswerSignature``.
struct AnswerSigner: Sendable {
    /// The server's P-256 signing key.
    let key: PrivateKey

    /// The `Tally-Signature` field for `body`, answering a request that sent `nonce` (its `Tally-Nonce`; one that
    /// is missing or not ``AnswerSignature/isValidNonce(_:)`` is signed as empty), at `now`. Nil if OpenSSL cannot
    /// sign (the answer then goes unsigned, and a client that pins the key refuses it).
    func field(body: [UInt8], nonce: String?, at now: Date) -> HTTPResponse.Field? {
        let signed = nonce.flatMap { AnswerSignature.isValidNonce($0) ? $0 : nil } ?? ""
        let time = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
        let digest = ECDSA.sha256(AnswerSignature.message(time: time, nonce: signed, body: body))
        guard let der = key.signDigest(digest), let raw = ECDSA.rawSignature(fromDER: der) else { return nil }
        let signature = AnswerSignature(time: time, nonce: signed, signature: raw)
        return HTTPResponse.Field(AnswerSignature.headerName, signature.header)
    }
}
