// What the entry points and the allocation stand-ins share, inside this target only.
#ifndef INSTRUMENTATION_LISTENING_H
#define INSTRUMENTATION_LISTENING_H

#include <stdatomic.h>

/// How many runs under way listen.
extern _Atomic int instrumentationListening __attribute__((visibility("hidden")));
/// Set while the calling thread runs a handler: what the handler's own code does is not the run's.
extern __thread int instrumentationInsideHandler __attribute__((visibility("hidden")));

/// Tells the allocation handler of the blocks the calling thread noted (Allocations.c).
void instrumentation_tell_pending_allocations(void);

#define LISTENING __builtin_expect(atomic_load_explicit(&instrumentationListening, memory_order_relaxed) != 0, 0)

#endif
