// Stand-ins for the allocator's functions, for the slots through which the Swift runtime allocates
// (objects, buffers, tasks): in a listening run, each block handed out is told to the handler,
// since memory one task freed and another task got again is no data race, and what was recorded
// of the block before is no longer the same memory's.
//
// Not at once: the runtime allocates while it holds locks of its own, such as its cache of generic
// metadata, and the handler's Swift code may need what those locks guard (metadata made the first
// time it runs a path), which would wait for the lock its own thread holds. So a stand-in only
// notes the block, in a list of its thread's, and the handler is told of the blocks noted, in
// order, before the thread's next access or atomic operation is told of, and before its step
// ends or pauses.
#include "InstrumentationEntryPoints.h"
#include "Listening.h"

#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <malloc.h>
#endif

static InstrumentedAllocationHandler allocationHandler = 0;
/// How deep the calling thread is in the scheduler's own work, whose allocations are no run's.
static __thread int insideLibrary = 0;

void instrumentation_library_enter(void) { insideLibrary += 1; }
void instrumentation_library_exit(void) { insideLibrary -= 1; }

void instrumentation_set_allocation_handler(InstrumentedAllocationHandler handler) { allocationHandler = handler; }

typedef struct {
  void *start;
  size_t size;
} PendingBlock;

/// The blocks the calling thread's stand-ins noted and the handler has not been told of yet.
static __thread PendingBlock *pending = 0;
static __thread size_t pendingCount = 0;
static __thread size_t pendingCapacity = 0;

/// The bytes of the block at `start` its owner may use, which may be more than the `size` asked
/// for: the standard library's buffers take the whole of it (an array of 48 bytes asked for can
/// use 56), and what was recorded of those bytes is the block before's too.
static size_t usableSize(void *start, size_t size) {
#if defined(__linux__)
  size_t usable = malloc_usable_size(start);
  return usable > size ? usable : size;
#else
  return size;
#endif
}

/// Notes the `size` bytes at `start` as handed out.
static void noteBlock(void *start, size_t size) {
  if (!start || !size || instrumentationInsideHandler || insideLibrary || !allocationHandler) return;
  if (pendingCount == pendingCapacity) {
    // The C library's own `realloc`: only the runtime's slots lead to the stand-ins.
    size_t capacity = pendingCapacity ? pendingCapacity * 2 : 64;
    PendingBlock *grown = realloc(pending, capacity * sizeof(PendingBlock));
    if (!grown) return;
    pending = grown;
    pendingCapacity = capacity;
  }
  pending[pendingCount++] = (PendingBlock){start, size};
}

/// Notes the block at `start`, `size` bytes asked for, as handed out.
static void tellAllocation(void *start, size_t size) {
  if (start) noteBlock(start, usableSize(start, size));
}

void instrumentation_tell_pending_allocations(void) {
  if (!pendingCount || instrumentationInsideHandler || !allocationHandler) return;
  instrumentationInsideHandler = 1;
  for (size_t index = 0; index < pendingCount; index++) allocationHandler(pending[index].start, pending[index].size);
  pendingCount = 0;
  instrumentationInsideHandler = 0;
}

void instrumentation_discard_pending_allocations(void) { pendingCount = 0; }

size_t instrumentation_pending_allocation_count(void) { return pendingCount; }

int instrumentation_last_pending_allocation(const void **start, size_t *size) {
  if (!pendingCount) return 0;
  *start = pending[pendingCount - 1].start;
  *size = pending[pendingCount - 1].size;
  return 1;
}

static void *followingMalloc(size_t size) {
  void *block = malloc(size);
  if (LISTENING) tellAllocation(block, size);
  return block;
}

static void *followingCalloc(size_t count, size_t size) {
  void *block = calloc(count, size);
  if (LISTENING) tellAllocation(block, count * size);
  return block;
}

static void *followingRealloc(void *old, size_t size) {
#if defined(__linux__)
  size_t before = old ? malloc_usable_size(old) : 0;
#else
  size_t before = (size_t)-1;  // Unknown: a block grown in place is not noted.
#endif
  void *block = realloc(old, size);
  if (LISTENING && block) {
    if (block != old) {
      tellAllocation(block, size);
    } else {
      // Grown in place: the bytes past the old ones are handed out anew.
      size_t after = usableSize(block, size);
      if (after > before) noteBlock((char *)block + before, after - before);
    }
  }
  return block;
}

static int followingPosixMemalign(void **result, size_t alignment, size_t size) {
  int failed = posix_memalign(result, alignment, size);
  if (LISTENING && !failed) tellAllocation(*result, size);
  return failed;
}

static void *followingAlignedAlloc(size_t alignment, size_t size) {
  void *block = aligned_alloc(alignment, size);
  if (LISTENING) tellAllocation(block, size);
  return block;
}

const void *instrumentation_following_allocator(const char *name) {
  const char *names[] = {"malloc", "calloc", "realloc", "posix_memalign", "aligned_alloc"};
  const void *standIns[] = {
    (const void *)followingMalloc, (const void *)followingCalloc, (const void *)followingRealloc,
    (const void *)followingPosixMemalign, (const void *)followingAlignedAlloc,
  };
  for (int index = 0; index < 5; index++) {
    if (strcmp(names[index], name) == 0) return standIns[index];
  }
  return 0;
}
