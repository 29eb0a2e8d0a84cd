import Foundation
import TallyCore


extension Store {
    /// The journal entry recording `signed`, the renewal info of chain `chain` (nil: any chain): its verified
    /// payload with its signed form. Nil when the store already holds that payload, and when the signed form does
    /// not verify or signs another chain's renewal info; that is reported (``StoreDiagnostic/Kind/unverifiedRenewalInfo``)
    /// and grants nothing.
    func renewalInfoEntry(_ signed: SignedRenewalInfo, chain: String?, doing action: String) -> JournalEntry? {
        let named = signed.renewalInfo.originalTransactionId
        let info: RenewalInfo
        do { info = try signedForms.renewalInfo(signedBy: signed.jwsRepresentation) } catch {
            report(StoreDiagnostic(.unverifiedRenewalInfo, "\(action): the renewal info of chain \(named) has a "
                + "signed form that does not verify (\(error.message)); ignored, it grants nothing"))
            return nil
        }
        let expected = chain ?? named
        guard info.originalTransactionId == expected else {
            report(StoreDiagnostic(.unverifiedRenewalInfo, "\(action): the renewal info of chain \(expected) came "
                + "with the signed form of chain \(info.originalTransactionId)'s; ignored, it grants nothing"))
            return nil
        }
        guard record.renewalInfos[info.originalTransactionId]?.renewalInfo != info else { return nil }
        return .renewalInfo(info, jwsRepresentation: signed.jwsRepresentation)
    }

    /// The renewal info of chain `chain` that `signed` signs, or nil when its signed form does not verify or
    /// signs another chain's; reports nothing (the delivery that follows does).
    func verifiedPayload(_ signed: SignedRenewalInfo?, chain: String) -> RenewalInfo? {
        guard let signed, let info = try? signedForms.renewalInfo(signedBy: signed.jwsRepresentation),
              info.originalTransactionId == chain else { return nil }
        return info
    }
}
