// libFuzzer's two entry points, for a package that must also build and run without it.
// Building with `swift build -Xswiftc -sanitize=fuzzer` links libFuzzer's runtime into every
// executable; it refers to LLVMFuzzerTestOneInput, which only the fuzz harness defines.
#ifndef IMAGEPROBE_FUZZER_HOOKS_H
#define IMAGEPROBE_FUZZER_HOOKS_H

#include <stddef.h>
#include <stdint.h>

typedef int (*imageprobe_fuzz_callback)(const uint8_t *data, size_t size);

/// Whether libFuzzer's runtime is linked (the program was built with -sanitize=fuzzer).
int imageprobe_fuzzer_linked(void);

/// Runs libFuzzer's driver (LLVMFuzzerRunDriver: its flags and corpus directories from
/// argv) with `callback` for each input; returns its exit status, or -1 when the runtime isn't
/// linked.
int imageprobe_fuzzer_run(int *argc, char ***argv, imageprobe_fuzz_callback callback);

#endif
