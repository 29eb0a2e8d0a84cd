import CryptoKit
import Foundation
import TallyCore


/// A customer answer of the server as received: its body bytes and its `Tally-Signature` header (nil: none).
/// Kept beside the saved state (``SavedServerState``) so the signature is checked again at every load.
struct SignedAnswer: Sendable, Hashable, Codable {
    /// The answer's body, exactly as sent.
    var body: Data
    /// The `Tally-Signature` header's value (``AnswerSignature``).
    var signature: String?
}

/// Checks the server's signed answers against the public key pinned in ``ServerLink/serverPublicKey``, with
/// CryptoKit's P-256 ECDSA (Apple's framework; on Linux its stand-in).
struct AnswerVerifier: Sendable {
    /// The pinned key: SubjectPublicKeyInfo DER, or x9.63 (`04 ‖ X ‖ Y`, 65 bytes).
    let publicKey: Data

    /// Why an answer is not believed.
    struct Refusal: Error, Sendable, CustomStringConvertible {
        var description: String
    }

    /// The pinned key as CryptoKit's; a refusal when it is neither form of a P-256 key.
    func key() throws(Refusal) -> P256.Signing.PublicKey {
        do {
            if publicKey.count == 65, publicKey.first == 0x04 {
                return try P256.Signing.PublicKey(x963Representation: publicKey)
            }
            return try P256.Signing.PublicKey(derRepresentation: publicKey)
        } catch {
            throw Refusal(description: "ServerLink.serverPublicKey is not a P-256 public key (SPKI DER or x9.63)")
        }
    }

    /// The signature of `answer` when it verifies with the pinned key, was made for `nonce` (nil: any nonce, for
    /// an answer re-read from disk whose nonce was checked when it arrived) and its `customer` is `appUserId`
    /// (compared as UTF-8 bytes).
    func verify(_ answer: SignedAnswer, nonce: String?, appUserId: String) throws(Refusal) -> AnswerSignature {
        guard let header = answer.signature else {
            throw Refusal(description: "the answer carries no \(AnswerSignature.headerName) header")
        }
        let signature: AnswerSignature
        do { signature = try AnswerSignature(header: header) } catch {
            throw Refusal(description: "its \(AnswerSignature.headerName) header is malformed: \(error)")
        }
        if let nonce, signature.nonce != nonce {
            throw Refusal(description: "it is signed for another request (nonce '\(signature.nonce)', not the "
                + "'\(nonce)' this request sent): a replayed answer")
        }
        let key = try key()
        let valid: Bool
        do {
            let ecdsa = try P256.Signing.ECDSASignature(rawRepresentation: signature.signature)
            valid = key.isValidSignature(ecdsa, for: signature.message(body: answer.body))
        } catch {
            valid = false
        }
        guard valid else {
            throw Refusal(description: "its signature does not verify with ServerLink.serverPublicKey")
        }
        guard let customer = ServerCustomer.appUserId(in: answer.body), customer.hasSameBytes(as: appUserId) else {
            throw Refusal(description: "it is signed for another customer, not '\(appUserId)'")
        }
        return signature
    }
}
