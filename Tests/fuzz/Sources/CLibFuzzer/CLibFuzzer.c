// Header-only module: LLVMFuzzerRunDriver comes from libclang_rt.fuzzer (-sanitize=fuzzer).
#include "CLibFuzzer.h"
