import COpenSSL

/// Limits on a receipt's PKCS#7 container checked before OpenSSL decodes it (`d2i_PKCS7` parses every embedded
/// certificate, and the chain is built over all of them: 1,300 certificates cost 202 ms of CPU). Apple's receipts
/// are a few KB to a few hundred KB and embed 3 certificates, 1 signer and no CRLs.
///
/// The walk reads only element headers (OpenSSL's `ASN1_get_object`) and skips whole elements with OpenSSL's
/// decoder (`d2i_ASN1_TYPE`, which also finds the end of BER indefinite lengths); it counts the members of the
/// `SignedData` sets without decoding them, and stops at the first set past its limit.
enum ReceiptEnvelope {
    /// The largest container read, in bytes.
    static let maximumBytes = 4 << 20
    /// The most members of any set in `SignedData`: digest algorithms, certificates, CRLs, signer infos.
    static let maximumSetMembers = 10
    /// The most bytes of embedded certificates (Apple's three take about 4.5 KB).
    static let maximumCertificateBytes = 64 << 10

    /// Throws when `der` is larger than ``maximumBytes`` or a `SignedData` set holds too much; returns quietly for
    /// a container whose shape it does not recognize, which `d2i_PKCS7` then refuses.
    static func check(_ der: [UInt8]) throws(VerificationFailure) {
        guard der.count <= maximumBytes else {
            throw VerificationFailure(.verificationFailure,
                "the receipt's PKCS#7 container is \(der.count) bytes; at most \(maximumBytes) are read (Apple's receipts are far smaller)")
        }
        ERR_clear_error()
        defer { ERR_clear_error() }
        let problem: String? = der.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return nil }
            var walk = Walk(cursor: base, end: base + buffer.count)
            return walk.signedDataProblem()
        }
        if let problem { throw VerificationFailure(.verificationFailure, problem) }
    }

    /// A cursor over the container's bytes.
    private struct Walk {
        var cursor: UnsafePointer<UInt8>
        let end: UnsafePointer<UInt8>

        /// The header of the element at the cursor, which moves past the header; nil when unreadable.
        mutating func enter() -> (tag: Int32, tagClass: Int32, constructed: Bool, indefinite: Bool, length: Int)? {
            var pointer: UnsafePointer<UInt8>? = cursor
            var length = 0, tag: Int32 = 0, tagClass: Int32 = 0
            let result = ASN1_get_object(&pointer, &length, &tag, &tagClass, end - cursor)
            guard result & 0x80 == 0, let pointer else { return nil }
            cursor = pointer
            return (tag, tagClass, result & V_ASN1_CONSTRUCTED != 0, result & 1 != 0, length)
        }

        /// Skips the whole element at the cursor; false when it does not decode.
        mutating func skip() -> Bool {
            var pointer: UnsafePointer<UInt8>? = cursor
            guard let value = d2i_ASN1_TYPE(nil, &pointer, end - cursor), let pointer else { return false }
            ASN1_TYPE_free(value)
            cursor = pointer
            return true
        }

        /// Whether the cursor is at an end-of-contents marker (`00 00`) or the end.
        var atEndOfContents: Bool {
            end - cursor < 2 || (cursor[0] == 0 && cursor[1] == 0)
        }

        /// What is too large in `ContentInfo { contentType, [0] SignedData }`, or nil.
        mutating func signedDataProblem() -> String? {
            guard let info = enter(), info.constructed, info.tag == V_ASN1_SEQUENCE, skip(),  // contentType
                  let explicit = enter(), explicit.constructed, explicit.tagClass == V_ASN1_CONTEXT_SPECIFIC,
                  let signed = enter(), signed.constructed, signed.tag == V_ASN1_SEQUENCE,
                  skip()  // version
            else { return nil }
            guard let digests = count(limit: maximumSetMembers) else { return nil }
            if digests.count > maximumSetMembers {
                return "the receipt names more than \(maximumSetMembers) digest algorithms; Apple's name 1"
            }
            guard skip() else { return nil }  // the signed content
            // [0] certificates, [1] CRLs (both optional), then the signer infos.
            while !atEndOfContents {
                let tagByte = cursor[0]
                guard let members = count(limit: maximumSetMembers) else { return nil }
                switch tagByte {
                case 0xA0:
                    if members.count > maximumSetMembers {
                        return "the receipt embeds more than \(maximumSetMembers) certificates; Apple's embed 3"
                    }
                    if members.bytes > maximumCertificateBytes {
                        return "the receipt's certificates take \(members.bytes) bytes; at most "
                            + "\(maximumCertificateBytes) are read (Apple's take about 4.5 KB)"
                    }
                case 0xA1:
                    if members.count > maximumSetMembers {
                        return "the receipt embeds more than \(maximumSetMembers) revocation lists; Apple's embed none"
                    }
                default:
                    if members.count > maximumSetMembers {
                        return "the receipt has more than \(maximumSetMembers) signers; Apple's has 1"
                    }
                    return nil
                }
            }
            return nil
        }

        /// Counts the members of the constructed element at the cursor (at most `limit + 1`), with their bytes,
        /// and leaves the cursor after it; nil when it does not decode.
        mutating func count(limit: Int) -> (count: Int, bytes: Int)? {
            guard let header = enter(), header.constructed else { return nil }
            let contentStart = cursor
            let contentEnd = header.indefinite ? end : min(end, cursor + header.length)
            var members = 0
            while cursor < contentEnd {
                if header.indefinite && atEndOfContents { break }
                guard skip() else { return nil }
                members += 1
                if members > limit { return (members, cursor - contentStart) }
            }
            let bytes = cursor - contentStart
            if header.indefinite {
                guard end - cursor >= 2 else { return nil }
                cursor += 2
            } else {
                cursor = contentEnd
            }
            return (members, bytes)
        }
    }
}
