# Sanitizer builds (JZ_SANITIZE, see tests/sanitizers/README.md), included by the top CMakeLists.txt
# after all targets exist: every executable gets the default options and suppressions, canaries prove
# that errors are reported at all, and TSan builds leave OpenMP out of our code.
set(JZ_SANITIZER_DIR ${CMAKE_CURRENT_LIST_DIR})
add_library(jz_sanitizer_defaults OBJECT ${JZ_SANITIZER_DIR}/defaults.cpp)
target_compile_definitions(jz_sanitizer_defaults PRIVATE JZ_SANITIZER_DIR="${JZ_SANITIZER_DIR}")

if(JZ_BUILD_TESTS)
  add_executable(sanitizer_canary ${JZ_SANITIZER_DIR}/canary.cpp)
  target_link_libraries(sanitizer_canary PRIVATE Threads::Threads)
  # The canaries report on stderr even when scripts/sanitize.sh sends the other tests' reports to files.
  set(canary_env "ASAN_OPTIONS=log_path=stderr;UBSAN_OPTIONS=log_path=stderr;TSAN_OPTIONS=log_path=stderr")
  if(JZ_SANITIZE STREQUAL "address")
    set(canaries
      "heap-overflow|AddressSanitizer: heap-buffer-overflow"
      # The stack trace shows that the default options (print_stacktrace=1) are linked in.
      "signed-overflow|signed integer overflow[^#]*#0 [^\n]*signed_overflow"
      "leak|LeakSanitizer: detected memory leaks")
  else()
    set(canaries "data-race|ThreadSanitizer: data race")
  endif()
  foreach(c ${canaries})
    string(REPLACE "|" ";" c "${c}")
    list(GET c 0 what)
    list(GET c 1 expect)
    add_test(NAME sanitizer_canary_${what} COMMAND sanitizer_canary ${what})
    set_tests_properties(sanitizer_canary_${what} PROPERTIES ENVIRONMENT "${canary_env}"
                         PASS_REGULAR_EXPRESSION "${expect}")
  endforeach()
endif()

if(JZ_SANITIZE STREQUAL "thread")
  # libgomp is not instrumented: TSan cannot see its barriers and reports what an OpenMP team hands
  # back to the thread that started it as a race (perft_divide's results, seen in core_tests). So in
  # TSan builds our OpenMP loops (core/perft.cpp, nn/encoding.cpp) compile without OpenMP and run on
  # one thread; libgomp is still linked for LibTorch.
  set_property(TARGET OpenMP::OpenMP_CXX PROPERTY INTERFACE_COMPILE_OPTIONS -Wno-unknown-pragmas)
endif()

# Every executable in the tree, the janggi-zero binary included, links the default options.
function(jz_link_sanitizer_defaults dir)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  foreach(t ${targets})
    get_target_property(type ${t} TYPE)
    if(type STREQUAL "EXECUTABLE")
      target_link_libraries(${t} PRIVATE jz_sanitizer_defaults)
    endif()
  endforeach()
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(d ${subdirs})
    jz_link_sanitizer_defaults(${d})
  endforeach()
endfunction()
jz_link_sanitizer_defaults(${CMAKE_SOURCE_DIR})
