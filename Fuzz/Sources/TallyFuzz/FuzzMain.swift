import CFuzzerDriver

/// The executable's entry point (SwiftPM links `main` to `TallyFuzz_main`): hands the command line to
/// libFuzzer, which calls ``fuzz(_:_:)`` for every input.
@_cdecl("TallyFuzz_main")
public func tallyFuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { data, size in
        guard let data else { return 0 }
        return fuzz(data, size)
    }
}
