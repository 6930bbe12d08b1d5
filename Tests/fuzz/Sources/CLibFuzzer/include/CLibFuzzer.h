// libFuzzer's driver entry point (compiler-rt's FuzzerInterface.h / FuzzerDriver.cpp), so a Swift
// executable can hand control to libFuzzer from its own main: SwiftPM links every executable
// with main aliased to `<module>_main`, which rules out libFuzzer's own main().
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size));
