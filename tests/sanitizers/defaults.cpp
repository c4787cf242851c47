// Default sanitizer options, linked into every executable of a sanitizer build (JZ_SANITIZE), so that
// the test binaries, the janggi-zero processes the tests start and runs by hand all stop at the first
// report and use the checked-in suppressions without anyone setting ASAN_OPTIONS & co. The runtimes
// read these before the environment variables, which still override them key by key.
// These functions run before the runtime is set up: they must not be instrumented or allocate.

#ifndef JZ_SANITIZER_DIR
#error "JZ_SANITIZER_DIR must name tests/sanitizers"
#endif

#define JZ_NO_SANITIZE __attribute__((no_sanitize_address, no_sanitize_thread, no_sanitize_undefined, used))
#define JZ_SUPP(file) "suppressions=" JZ_SANITIZER_DIR "/" file

extern "C" {

// ASan: stop at the first error; also catch static initialisers that read other files' globals
// before those are constructed.
JZ_NO_SANITIZE const char* __asan_default_options() {
  return "halt_on_error=1:detect_leaks=1:check_initialization_order=1:strict_init_order=1:"
         "detect_invalid_pointer_pairs=0:" JZ_SUPP("asan.supp");
}

// UBSan (built with -fno-sanitize-recover, so every report is fatal): print where it happened.
JZ_NO_SANITIZE const char* __ubsan_default_options() {
  return "halt_on_error=1:print_stacktrace=1:" JZ_SUPP("ubsan.supp");
}

// LeakSanitizer (part of ASan): LibTorch's one-time allocations are suppressed, ours are not.
JZ_NO_SANITIZE const char* __lsan_default_options() { return "print_suppressions=0:" JZ_SUPP("lsan.supp"); }

// TSan: stop at the first race; both stacks of a lock-order inversion.
JZ_NO_SANITIZE const char* __tsan_default_options() {
  return "halt_on_error=1:second_deadlock_stack=1:" JZ_SUPP("tsan.supp");
}

}  // extern "C"
