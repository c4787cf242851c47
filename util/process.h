// What the kernel knows about a running process (Linux /proc): CPU time used so far. Used to put
// CPU hours on the learning curve (training/train_loop.cpp).
#pragma once
#include <sys/types.h>

namespace jz {

// User + system CPU seconds of this process (all threads).
double self_cpu_seconds();
// User + system CPU seconds of a live process by pid; -1 if it cannot be read (gone, no /proc).
double process_cpu_seconds(pid_t pid);

}  // namespace jz
