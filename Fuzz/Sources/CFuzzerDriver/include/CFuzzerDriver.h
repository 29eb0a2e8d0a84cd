#ifndef TALLY_CFUZZERDRIVER_H
#define TALLY_CFUZZERDRIVER_H
#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (compiler-rt, linked by -sanitize=fuzzer). SwiftPM names an executable's entry
/// point `<Module>_main` and aliases `main` to it, so libFuzzer's own `main` is never linked; the
/// Swift entry point calls this driver instead.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
