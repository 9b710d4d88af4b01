// What the entry points and the allocation stand-ins share, inside this target only.
#ifndef INSTRUMENTATION_LISTENING_H
#define INSTRUMENTATION_LISTENING_H

#include "InstrumentationEntryPoints.h"

#include <stdatomic.h>

/// How many runs under way listen.
extern _Atomic int instrumentationListening __attribute__((visibility("hidden")));
/// Set while the calling thread runs a handler: what the handler's own code does is not the run's.
extern __thread int instrumentationInsideHandler __attribute__((visibility("hidden")));

/// The atomic operations' handler the scheduler set (EntryPoints.c, Atomics.c).
extern InstrumentedAtomicHandler instrumentationAtomicHandler __attribute__((visibility("hidden")));

/// Tells the allocation handler of the blocks the calling thread noted (Allocations.c).
void instrumentation_tell_pending_allocations(void);

#define LISTENING __builtin_expect(atomic_load_explicit(&instrumentationListening, memory_order_relaxed) != 0, 0)

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
/// The real sanitizer is built in (`swift build --sanitize=thread` compiles this target with
/// `-fsanitize=thread` too): its runtime defines the entry points, and none is defined here.
#define REAL_SANITIZER_BUILT_IN 1
#endif
#endif

/// How many initializers of lazy globals the calling thread is inside (`swift_once`): their
/// operations are no scheduling point (a pause there would hold the runtime's once lock) and are
/// no run's, as every later reader comes after them, and a process runs them in its first run only.
extern __thread int instrumentationInsideOnce __attribute__((visibility("hidden")));

/// The address in the instrumented code that called the entry point, read in the entry point's
/// own frame: the compiler may move an entry point's slow path into a function of its own, where
/// `__builtin_return_address(0)` would name the entry point.
#define CALLER instrumentationCallerOf(__builtin_return_address(0))
static inline const void *instrumentationCallerOf(const void *address) {
  __asm__ volatile("" : "+r"(address));
  return address;
}
/// An entry point: weak, so that a sanitizer runtime linked some other way wins.
#define ENTRY __attribute__((weak, visibility("default")))

#endif
