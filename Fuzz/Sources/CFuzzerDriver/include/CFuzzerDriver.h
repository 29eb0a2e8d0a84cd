#ifndef TALLY_CFUZZERDRIVER_H
#define TALLY_CFUZZERDRIVER_H
#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (compiler-rt, linked by -sanitize=fuzzer). SwiftPM names an executable's entry
/// point `<Module>_main` and aliases `main` to it, so libFuzzer's own `main` is never linked; the
/// Swift entry point calls this driver instead.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

/// LeakSanitizer (linked by -sanitize=address): allocations made between `__lsan_disable()` and
/// `__lsan_enable()` are never reported. The harness brackets the rebuild of its long-lived APIs with
/// them, because LeakSanitizer does not see pointers kept in Swift enum payloads with spare-bit tags
/// (`Data`, `String`) and would report those live objects as leaks (see lsan.supp).
void __lsan_disable(void);
void __lsan_enable(void);

#endif
