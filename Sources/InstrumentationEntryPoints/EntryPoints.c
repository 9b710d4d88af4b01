// The thread sanitizer's entry points, as code built with `-Xfrontend -sanitize=thread` calls them
// (the frontend flag alone, so the driver links no sanitizer runtime). Outside a listening run each
// does only what the instrumented code asked, after one relaxed load; inside one, atomic
// operations and plain accesses are told to the handlers the scheduler set.
//
// Where the real sanitizer is built in (`swift build --sanitize=thread` compiles this file with
// `-fsanitize=thread` too), its runtime defines these names and none is defined here. They are
// weak besides, so that a runtime linked some other way wins.
#include "InstrumentationEntryPoints.h"
#include "Listening.h"

#include <dlfcn.h>
#include <stdatomic.h>
#include <string.h>

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define REAL_SANITIZER_BUILT_IN 1
#endif
#endif

_Atomic int instrumentationListening = 0;
static _Atomic int loaded = 0;
static InstrumentedAtomicHandler atomicHandler = 0;
static InstrumentedAccessHandler accessHandler = 0;
__thread int instrumentationInsideHandler = 0;
/// How many initializers of lazy globals the calling thread is inside (`swift_once`): their
/// operations are no scheduling point (a pause there would hold the runtime's once lock) and are
/// no run's, as every later reader comes after them, and a process runs them in its first run only.
static __thread int insideOnce = 0;

void instrumentation_set_handlers(InstrumentedAtomicHandler atomic, InstrumentedAccessHandler access) {
  atomicHandler = atomic;
  accessHandler = access;
}

void instrumentation_add_listening_runs(int delta) { atomic_fetch_add_explicit(&instrumentationListening, delta, memory_order_seq_cst); }

int instrumentation_was_loaded(void) { return atomic_load_explicit(&loaded, memory_order_relaxed); }

#ifndef REAL_SANITIZER_BUILT_IN

int instrumentation_entry_points_defined(void) { return 1; }


/// The address in the instrumented code that called the entry point, read in the entry point's
/// own frame: the compiler may move an entry point's slow path into a function of its own, where
/// `__builtin_return_address(0)` would name the entry point.
#define CALLER callerOf(__builtin_return_address(0))
static inline const void *callerOf(const void *address) {
  __asm__ volatile("" : "+r"(address));
  return address;
}
#define ENTRY __attribute__((weak, visibility("default")))

static int tellAtomic(int phase, const volatile void *address, int size, int kind, int order, uint64_t found, const void *caller) {
  if (instrumentationInsideHandler || insideOnce || !atomicHandler) return 0;
  instrumentation_tell_pending_allocations();
  instrumentationInsideHandler = 1;
  int answer = atomicHandler(phase, (const void *)address, size, kind, order, found, caller);
  instrumentationInsideHandler = 0;
  return answer;
}

static void tellAccess(const volatile void *address, size_t size, int writes, const void *caller) {
  if (instrumentationInsideHandler || insideOnce || !accessHandler) return;
  instrumentation_tell_pending_allocations();
  instrumentationInsideHandler = 1;
  accessHandler((const void *)address, size, writes, caller);
  instrumentationInsideHandler = 0;
}

typedef void (*RuntimeSync)(const void *);
static InstrumentedSyncHandler syncHandler = 0;
static RuntimeSync previousAcquire = 0;
static RuntimeSync previousRelease = 0;

static void tellSync(int acquires, const void *address) {
  if (instrumentationInsideHandler || !syncHandler) return;
  // The blocks noted stay so: the runtime marks these holding locks of its own (its metadata
  // allocator's, say), under which the allocation handler must not run (Allocations.c). A mark
  // orders; it touches no memory the blocks' noting could change.
  instrumentationInsideHandler = 1;
  syncHandler(acquires, address);
  instrumentationInsideHandler = 0;
}
static void runtimeAcquire(const void *address) {
  if (previousAcquire) previousAcquire(address);
  if (LISTENING) tellSync(1, address);
}
static void runtimeRelease(const void *address) {
  if (previousRelease) previousRelease(address);
  if (LISTENING) tellSync(0, address);
}

typedef void (*Once)(void *predicate, void (*function)(void *), void *context);
static Once realOnce = 0;

/// Every return acquires the predicate; the call that ran the initializer, which changed the
/// predicate, releases it too. Readers alone order nothing among themselves.
static void markingOnce(void *predicate, void (*function)(void *), void *context) {
  intptr_t before = *(volatile intptr_t *)predicate;
  insideOnce += 1;
  realOnce(predicate, function, context);
  insideOnce -= 1;
  if (LISTENING) {
    tellSync(1, predicate);
    if (*(volatile intptr_t *)predicate != before) tellSync(0, predicate);
  }
}

const void *instrumentation_marking_once(void) {
  if (!realOnce) realOnce = (Once)dlsym(RTLD_DEFAULT, "swift_once");
  return realOnce ? (const void *)markingOnce : 0;
}

int instrumentation_follow_runtime_sync(InstrumentedSyncHandler handler) {
  RuntimeSync *acquire = (RuntimeSync *)dlsym(RTLD_DEFAULT, "_swift_tsan_acquire");
  RuntimeSync *release = (RuntimeSync *)dlsym(RTLD_DEFAULT, "_swift_tsan_release");
  if (!acquire || !release) return 0;
  syncHandler = handler;
  if (*acquire != runtimeAcquire) {
    previousAcquire = *acquire;
    *acquire = runtimeAcquire;
  }
  if (*release != runtimeRelease) {
    previousRelease = *release;
    *release = runtimeRelease;
  }
  return 1;
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

// Atomic operations: each one a scheduling point in a listening run, made sequentially
// consistent (at least as strong as asked).
#define SEQ __ATOMIC_SEQ_CST
#define BEFORE(kind, mo, pc) tellAtomic(InstrumentedAtomicBefore, a, (int)sizeof(*a), kind, mo, 0, pc)
#define WROTE(kind, mo, pc) tellAtomic(InstrumentedAtomicWrote, a, (int)sizeof(*a), kind, mo, 0, pc)

#define READ_MODIFY_WRITE(bits, T, name, builtin)                                                          \
  ENTRY T __tsan_atomic##bits##_##name(volatile T *a, T v, int mo) {                                       \
    const void *pc = CALLER;                                                                               \
    if (!LISTENING) return builtin(a, v, SEQ);                                                             \
    BEFORE(InstrumentedAtomicReadModifyWrite, mo, pc);                                                     \
    T old = builtin(a, v, SEQ);                                                                            \
    WROTE(InstrumentedAtomicReadModifyWrite, mo, pc);                                                      \
    return old;                                                                                            \
  }

/// Makes the compare-exchange of `c` for `v` at `a`; in a listening run, one that fails is made
/// again as long as the scheduler says so. Leaves the value found in `*c`.
#define COMPARE_EXCHANGE_BODY(T, weak)                                                                     \
  if (!LISTENING) return __atomic_compare_exchange_n(a, c, v, weak, SEQ, SEQ);                             \
  BEFORE(InstrumentedAtomicCompareExchange, mo, pc);                                                       \
  T expected = *c;                                                                                         \
  for (;;) {                                                                                               \
    *c = expected;                                                                                         \
    if (__atomic_compare_exchange_n(a, c, v, weak, SEQ, SEQ)) {                                            \
      WROTE(InstrumentedAtomicCompareExchange, mo, pc);                                                    \
      return 1;                                                                                            \
    }                                                                                                      \
    if (!tellAtomic(InstrumentedAtomicFailed, a, (int)sizeof(T), InstrumentedAtomicCompareExchange, fmo,   \
                    (uint64_t)*c, pc))                                                                     \
      return 0;                                                                                            \
  }

#define ATOMICS(bits, T)                                                                                   \
  ENTRY T __tsan_atomic##bits##_load(const volatile T *a, int mo) {                                        \
    const void *pc = CALLER;                                                                               \
    if (LISTENING) BEFORE(InstrumentedAtomicLoad, mo, pc);                                                 \
    return __atomic_load_n(a, SEQ);                                                                        \
  }                                                                                                        \
  ENTRY void __tsan_atomic##bits##_store(volatile T *a, T v, int mo) {                                     \
    const void *pc = CALLER;                                                                               \
    if (!LISTENING) return __atomic_store_n(a, v, SEQ);                                                    \
    BEFORE(InstrumentedAtomicStore, mo, pc);                                                               \
    __atomic_store_n(a, v, SEQ);                                                                           \
    WROTE(InstrumentedAtomicStore, mo, pc);                                                                \
  }                                                                                                        \
  READ_MODIFY_WRITE(bits, T, exchange, __atomic_exchange_n)                                                \
  READ_MODIFY_WRITE(bits, T, fetch_add, __atomic_fetch_add)                                                \
  READ_MODIFY_WRITE(bits, T, fetch_sub, __atomic_fetch_sub)                                                \
  READ_MODIFY_WRITE(bits, T, fetch_and, __atomic_fetch_and)                                                \
  READ_MODIFY_WRITE(bits, T, fetch_or, __atomic_fetch_or)                                                  \
  READ_MODIFY_WRITE(bits, T, fetch_xor, __atomic_fetch_xor)                                                \
  READ_MODIFY_WRITE(bits, T, fetch_nand, __atomic_fetch_nand)                                              \
  ENTRY int __tsan_atomic##bits##_compare_exchange_strong(volatile T *a, T *c, T v, int mo, int fmo) {     \
    const void *pc = CALLER;                                                                               \
    COMPARE_EXCHANGE_BODY(T, 0)                                                                            \
  }                                                                                                        \
  ENTRY int __tsan_atomic##bits##_compare_exchange_weak(volatile T *a, T *c, T v, int mo, int fmo) {       \
    const void *pc = CALLER;                                                                               \
    COMPARE_EXCHANGE_BODY(T, 1)                                                                            \
  }                                                                                                        \
  ENTRY T __tsan_atomic##bits##_compare_exchange_val(volatile T *a, T expected, T v, int mo, int fmo) {    \
    const void *pc = CALLER;                                                                               \
    T found = expected;                                                                                    \
    T *c = &found;                                                                                         \
    if (!LISTENING) {                                                                                      \
      __atomic_compare_exchange_n(a, c, v, 0, SEQ, SEQ);                                                   \
      return found;                                                                                        \
    }                                                                                                      \
    (void)compareExchangeValue##bits(a, c, v, mo, fmo, pc);                                                \
    return found;                                                                                          \
  }

#define COMPARE_EXCHANGE_HELPER(bits, T)                                                                   \
  static int compareExchangeValue##bits(volatile T *a, T *c, T v, int mo, int fmo, const void *pc) {       \
    COMPARE_EXCHANGE_BODY(T, 0)                                                                            \
  }

COMPARE_EXCHANGE_HELPER(8, int8_t)
COMPARE_EXCHANGE_HELPER(16, int16_t)
COMPARE_EXCHANGE_HELPER(32, int32_t)
COMPARE_EXCHANGE_HELPER(64, int64_t)
ATOMICS(8, int8_t)
ATOMICS(16, int16_t)
ATOMICS(32, int32_t)
ATOMICS(64, int64_t)

#if defined(__SIZEOF_INT128__)
// Swift's 128-bit atomics (`WordPair`, `Int128`) use the processor's double-word compare-exchange,
// which a C compiler reaches without a flag only through assembly on x86-64. Every 128-bit
// operation is made of that one compare-exchange here.
typedef __int128 Wide;
static int wideCompareExchange(volatile Wide *a, Wide *expected, Wide desired) {
#if defined(__x86_64__)
  uint64_t lowFound = (uint64_t)*expected, highFound = (uint64_t)((unsigned __int128)*expected >> 64);
  unsigned char exchanged;
  __asm__ __volatile__("lock cmpxchg16b %1\n\tsete %0"
                       : "=q"(exchanged), "+m"(*a), "+a"(lowFound), "+d"(highFound)
                       : "b"((uint64_t)desired), "c"((uint64_t)((unsigned __int128)desired >> 64))
                       : "memory", "cc");
  *expected = (Wide)(((unsigned __int128)highFound << 64) | lowFound);
  return exchanged;
#else
  return __atomic_compare_exchange_n(a, expected, desired, 0, SEQ, SEQ);
#endif
}
static Wide wideLoad(const volatile Wide *a) {
  Wide found = 0;
  wideCompareExchange((volatile Wide *)a, &found, 0);
  return found;
}
#define WIDE_UPDATE(name, next)                                                                            \
  ENTRY Wide __tsan_atomic128_##name(volatile Wide *a, Wide v, int mo) {                                   \
    const void *pc = CALLER;                                                                               \
    int listens = LISTENING;                                                                               \
    if (listens) BEFORE(InstrumentedAtomicReadModifyWrite, mo, pc);                                        \
    Wide old = wideLoad(a);                                                                                \
    while (!wideCompareExchange(a, &old, (next))) {                                                        \
    }                                                                                                      \
    if (listens) WROTE(InstrumentedAtomicReadModifyWrite, mo, pc);                                         \
    return old;                                                                                            \
  }
WIDE_UPDATE(exchange, v)
WIDE_UPDATE(fetch_add, old + v)
WIDE_UPDATE(fetch_sub, old - v)
WIDE_UPDATE(fetch_and, old & v)
WIDE_UPDATE(fetch_or, old | v)
WIDE_UPDATE(fetch_xor, old ^ v)
WIDE_UPDATE(fetch_nand, ~(old & v))
ENTRY Wide __tsan_atomic128_load(const volatile Wide *a, int mo) {
  const void *pc = CALLER;
  if (LISTENING) BEFORE(InstrumentedAtomicLoad, mo, pc);
  return wideLoad(a);
}
ENTRY void __tsan_atomic128_store(volatile Wide *a, Wide v, int mo) {
  const void *pc = CALLER;
  int listens = LISTENING;
  if (listens) BEFORE(InstrumentedAtomicStore, mo, pc);
  Wide old = wideLoad(a);
  while (!wideCompareExchange(a, &old, v)) {
  }
  if (listens) WROTE(InstrumentedAtomicStore, mo, pc);
}
static int wideCompareExchangeListening(volatile Wide *a, Wide *c, Wide v, int mo, int fmo, const void *pc) {
  BEFORE(InstrumentedAtomicCompareExchange, mo, pc);
  Wide expected = *c;
  for (;;) {
    *c = expected;
    if (wideCompareExchange(a, c, v)) {
      WROTE(InstrumentedAtomicCompareExchange, mo, pc);
      return 1;
    }
    if (!tellAtomic(InstrumentedAtomicFailed, a, 16, InstrumentedAtomicCompareExchange, fmo, (uint64_t)*c, pc)) return 0;
  }
}
ENTRY int __tsan_atomic128_compare_exchange_strong(volatile Wide *a, Wide *c, Wide v, int mo, int fmo) {
  const void *pc = CALLER;
  if (!LISTENING) return wideCompareExchange(a, c, v);
  return wideCompareExchangeListening(a, c, v, mo, fmo, pc);
}
ENTRY int __tsan_atomic128_compare_exchange_weak(volatile Wide *a, Wide *c, Wide v, int mo, int fmo) {
  const void *pc = CALLER;
  if (!LISTENING) return wideCompareExchange(a, c, v);
  return wideCompareExchangeListening(a, c, v, mo, fmo, pc);
}
ENTRY Wide __tsan_atomic128_compare_exchange_val(volatile Wide *a, Wide c, Wide v, int mo, int fmo) {
  const void *pc = CALLER;
  if (!LISTENING) {
    wideCompareExchange(a, &c, v);
    return c;
  }
  wideCompareExchangeListening(a, &c, v, mo, fmo, pc);
  return c;
}
#endif

ENTRY void __tsan_atomic_thread_fence(int mo) {
  const void *pc = CALLER;
  if (LISTENING) tellAtomic(InstrumentedAtomicBefore, 0, 0, InstrumentedAtomicFence, mo, 0, pc);
  __atomic_thread_fence(SEQ);
}
ENTRY void __tsan_atomic_signal_fence(int mo) {
  (void)mo;
  __atomic_signal_fence(SEQ);
}

#else

int instrumentation_entry_points_defined(void) { return 0; }
int instrumentation_follow_runtime_sync(InstrumentedSyncHandler handler) {
  (void)handler;
  return 0;
}
const void *instrumentation_marking_once(void) { return 0; }

#endif
