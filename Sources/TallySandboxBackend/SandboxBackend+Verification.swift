import Tally

extension SandboxBackend {
    /// TallyVerify over the sandbox's root certificate (`ca/root.pem` in the directory): a transaction or a renewal
    /// info counts only when the sandbox signed it.
    public nonisolated var transactionVerifier: any TransactionVerifier { signing }
}
