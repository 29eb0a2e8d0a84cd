// Declarations only: LLVMFuzzerRunDriver comes from libFuzzer (compiler-rt).
#include "CFuzzerDriver.h"
