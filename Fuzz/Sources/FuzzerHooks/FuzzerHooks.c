// See include/FuzzerHooks.h. Weak symbols are an ELF feature here: on other platforms the
// runtime is never reported as linked, and the harness runs its replay commands only.
#include "FuzzerHooks.h"

#if defined(__ELF__)
// The default callback, for executables that aren't the harness: the harness's own (strong)
// definition replaces it. Never called outside a fuzzing run.
__attribute__((weak)) int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    (void)data;
    (void)size;
    return 0;
}

// libFuzzer's entry point for programs with their own main (LLVM 11 and later): null unless
// the runtime is linked.
extern int LLVMFuzzerRunDriver(int *argc, char ***argv, imageprobe_fuzz_callback callback) __attribute__((weak));

int imageprobe_fuzzer_linked(void) { return LLVMFuzzerRunDriver != 0; }

int imageprobe_fuzzer_run(int *argc, char ***argv, imageprobe_fuzz_callback callback) {
    if (!LLVMFuzzerRunDriver) return -1;
    return LLVMFuzzerRunDriver(argc, argv, callback);
}
#else
int imageprobe_fuzzer_linked(void) { return 0; }

int imageprobe_fuzzer_run(int *argc, char ***argv, imageprobe_fuzz_callback callback) {
    (void)argc;
    (void)argv;
    (void)callback;
    return -1;
}
#endif
