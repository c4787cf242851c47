// Deliberate errors, one per argument, so that a sanitizer build proves it reports them: without this a
// build whose flags or options got lost would pass every test and look clean.
#include <cstdio>
#include <cstring>
#include <thread>

namespace {

volatile int sink;

// Through memset, so that ASan itself reports it (UBSan's object-size check would see a plain a[4]).
int heap_overflow() {
  char* a = new char[16];
  volatile size_t n = 17;
  std::memset(a, 0, n);
  sink = a[0];
  delete[] a;
  return 0;
}

int signed_overflow() {
  volatile int big = 0x7fffffff;
  sink = big + 1;
  return 0;
}

int leak() {
  int* volatile p = new int[100];
  p[0] = 1;
  p = nullptr;
  return 0;
}

int data_race() {
  int shared = 0;
  std::thread t([&] {
    for (int i = 0; i < 1000; ++i) ++shared;
  });
  for (int i = 0; i < 1000; ++i) ++shared;
  t.join();
  sink = shared;
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const char* what = argc > 1 ? argv[1] : "";
  if (!std::strcmp(what, "heap-overflow")) return heap_overflow();
  if (!std::strcmp(what, "signed-overflow")) return signed_overflow();
  if (!std::strcmp(what, "leak")) return leak();
  if (!std::strcmp(what, "data-race")) return data_race();
  std::fprintf(stderr, "usage: sanitizer_canary heap-overflow|signed-overflow|leak|data-race\n");
  return 2;
}
