// What the Swift runtime marks for the thread sanitizer itself (`_swift_tsan_acquire` and
// `_swift_tsan_release`, around its own synchronization), and the initializers of lazy globals
// (`swift_once`), told to the scheduler's handler as orderings in a listening run.
#include "InstrumentationEntryPoints.h"
#include "Listening.h"

#include <dlfcn.h>
#include <stdint.h>

#ifndef REAL_SANITIZER_BUILT_IN

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
  instrumentationInsideOnce += 1;
  realOnce(predicate, function, context);
  instrumentationInsideOnce -= 1;
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

#else

int instrumentation_follow_runtime_sync(InstrumentedSyncHandler handler) {
  (void)handler;
  return 0;
}
const void *instrumentation_marking_once(void) { return 0; }

#endif
