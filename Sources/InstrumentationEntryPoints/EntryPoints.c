// The thread sanitizer's entry points, as code built with `-Xfrontend -sanitize=thread` calls them
// (the frontend flag alone, so the driver links no sanitizer runtime). Outside a listening run each
// does only what the instrumented code asked, after one relaxed load; inside one, plain accesses
// are told to the handler the scheduler set. This file holds the handlers, set-up and plain
// accesses; Atomics.c the atomic operations; RuntimeSync.c what the runtime itself marks.
//
// Where the real sanitizer is built in (`swift build --sanitize=thread` compiles this file with
// `-fsanitize=thread` too), its runtime defines these names and none is defined here. They are
// weak besides, so that a runtime linked some other way wins.
#include "InstrumentationEntryPoints.h"
#include "Listening.h"

#include <stdatomic.h>
#include <string.h>

_Atomic int instrumentationListening = 0;
static _Atomic int loaded = 0;
InstrumentedAtomicHandler instrumentationAtomicHandler = 0;
static InstrumentedAccessHandler accessHandler = 0;
__thread int instrumentationInsideHandler = 0;
__thread int instrumentationInsideOnce = 0;

void instrumentation_set_handlers(InstrumentedAtomicHandler atomic, InstrumentedAccessHandler access) {
  instrumentationAtomicHandler = atomic;
  accessHandler = access;
}

void instrumentation_add_listening_runs(int delta) { atomic_fetch_add_explicit(&instrumentationListening, delta, memory_order_seq_cst); }

int instrumentation_was_loaded(void) { return atomic_load_explicit(&loaded, memory_order_relaxed); }

#ifndef REAL_SANITIZER_BUILT_IN

int instrumentation_entry_points_defined(void) { return 1; }

static void tellAccess(const volatile void *address, size_t size, int writes, const void *caller) {
  if (instrumentationInsideHandler || instrumentationInsideOnce || !accessHandler) return;
  instrumentation_tell_pending_allocations();
  instrumentationInsideHandler = 1;
  accessHandler((const void *)address, size, writes, caller);
  instrumentationInsideHandler = 0;
}

// Set-up and function boundaries: nothing to do but note that instrumented code is here.
ENTRY void __tsan_init(void) { atomic_store_explicit(&loaded, 1, memory_order_relaxed); }
ENTRY void __tsan_func_entry(void *caller) { (void)caller; }
ENTRY void __tsan_func_exit(void) {}
ENTRY void __tsan_ignore_thread_begin(void) {}
ENTRY void __tsan_ignore_thread_end(void) {}

// Plain accesses, by size, and their unaligned, volatile and compound forms.
#define ACCESS(name, size, writes)                                                                         \
  ENTRY void name(void *a) {                                                                               \
    const void *pc = CALLER;                                                                               \
    if (LISTENING) tellAccess(a, size, writes, pc);                                                        \
  }
#define ACCESSES(size)                                                                                     \
  ACCESS(__tsan_read##size, size, 0)                                                                       \
  ACCESS(__tsan_write##size, size, 1)                                                                      \
  ACCESS(__tsan_unaligned_read##size, size, 0)                                                             \
  ACCESS(__tsan_unaligned_write##size, size, 1)                                                            \
  ACCESS(__tsan_volatile_read##size, size, 0)                                                              \
  ACCESS(__tsan_volatile_write##size, size, 1)                                                             \
  ACCESS(__tsan_unaligned_volatile_read##size, size, 0)                                                    \
  ACCESS(__tsan_unaligned_volatile_write##size, size, 1)                                                   \
  ACCESS(__tsan_read_write##size, size, 1)                                                                 \
  ACCESS(__tsan_unaligned_read_write##size, size, 1)                                                       \
  ENTRY void __tsan_read##size##_pc(void *a, void *pc) {                                                   \
    if (LISTENING) tellAccess(a, size, 0, pc);                                                             \
  }                                                                                                        \
  ENTRY void __tsan_write##size##_pc(void *a, void *pc) {                                                  \
    if (LISTENING) tellAccess(a, size, 1, pc);                                                             \
  }

ACCESSES(1)
ACCESSES(2)
ACCESSES(4)
ACCESSES(8)
ACCESSES(16)

ENTRY void __tsan_read_range(void *a, unsigned long size) {
  const void *pc = CALLER;
  if (LISTENING) tellAccess(a, size, 0, pc);
}
ENTRY void __tsan_write_range(void *a, unsigned long size) {
  const void *pc = CALLER;
  if (LISTENING) tellAccess(a, size, 1, pc);
}
ENTRY void __tsan_read_range_pc(void *a, unsigned long size, void *pc) {
  if (LISTENING) tellAccess(a, size, 0, pc);
}
ENTRY void __tsan_write_range_pc(void *a, unsigned long size, void *pc) {
  if (LISTENING) tellAccess(a, size, 1, pc);
}
// Swift's exclusivity checks: an access to a whole variable, whose first byte stands for it.
ENTRY void __tsan_external_read(void *a, void *pc, void *tag) {
  (void)tag;
  const void *caller = CALLER;
  if (LISTENING) tellAccess(a, 1, 0, pc ? pc : caller);
}
ENTRY void __tsan_external_write(void *a, void *pc, void *tag) {
  (void)tag;
  const void *caller = CALLER;
  if (LISTENING) tellAccess(a, 1, 1, pc ? pc : caller);
}
ENTRY void __tsan_vptr_update(void **a, void *value) {
  (void)value;
  const void *pc = CALLER;
  if (LISTENING) tellAccess(a, sizeof(void *), 1, pc);
}
ENTRY void __tsan_vptr_read(void **a) {
  const void *pc = CALLER;
  if (LISTENING) tellAccess(a, sizeof(void *), 0, pc);
}

ENTRY void *__tsan_memset(void *d, int c, size_t n) {
  const void *pc = CALLER;
  if (LISTENING) tellAccess(d, n, 1, pc);
  return memset(d, c, n);
}
ENTRY void *__tsan_memcpy(void *d, const void *s, size_t n) {
  const void *pc = CALLER;
  if (LISTENING) {
    tellAccess(s, n, 0, pc);
    tellAccess(d, n, 1, pc);
  }
  return memcpy(d, s, n);
}
ENTRY void *__tsan_memmove(void *d, const void *s, size_t n) {
  const void *pc = CALLER;
  if (LISTENING) {
    tellAccess(s, n, 0, pc);
    tellAccess(d, n, 1, pc);
  }
  return memmove(d, s, n);
}

#else

int instrumentation_entry_points_defined(void) { return 0; }

#endif
