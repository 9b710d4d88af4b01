// The thread sanitizer's entry points for atomic operations (see EntryPoints.c): each one a
// scheduling point in a listening run.
#include "InstrumentationEntryPoints.h"
#include "Listening.h"

#include <stdatomic.h>
#include <stdint.h>

#ifndef REAL_SANITIZER_BUILT_IN

static int tellAtomic(int phase, const volatile void *address, int size, int kind, int order, uint64_t found, const void *caller) {
  if (instrumentationInsideHandler || instrumentationInsideOnce || !instrumentationAtomicHandler) return 0;
  instrumentation_tell_pending_allocations();
  instrumentationInsideHandler = 1;
  int answer = instrumentationAtomicHandler(phase, (const void *)address, size, kind, order, found, caller);
  instrumentationInsideHandler = 0;
  return answer;
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

#endif
