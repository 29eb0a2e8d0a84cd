/// `tally-bench verify`: written once TallyVerify and the sandbox signer land.
enum VerifyBenchmark {
    static func run() {
        Report.header("verify")
        Report.line("not available in this build")
    }
}
