// The executor the calling code runs on, as the concurrency runtime tracks it.
#include "InstrumentationEntryPoints.h"

#include <dlfcn.h>

/// `swift_task_getCurrentExecutor`'s result: two words, returned in the same two registers under
/// the Swift and C calling conventions on the 64-bit platforms this library controls.
typedef struct {
  const void *identity;
  uintptr_t implementation;
} ExecutorReference;

typedef ExecutorReference (*CurrentExecutor)(void);

const void *instrumentation_current_executor_identity(void) {
  static CurrentExecutor current = 0;
  static int looked = 0;
  if (!looked) {
    current = (CurrentExecutor)dlsym(RTLD_DEFAULT, "swift_task_getCurrentExecutor");
    looked = 1;
  }
  return current ? current().identity : 0;
}
