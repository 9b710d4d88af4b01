// The entry points that code built with `-Xfrontend -sanitize=thread` calls for each memory
// access and atomic operation, defined here so that such code links without the sanitizer's
// runtime, and routed, while a run listens, to the scheduler whose step made them.
#ifndef INSTRUMENTATION_ENTRY_POINTS_H
#define INSTRUMENTATION_ENTRY_POINTS_H

#include <stddef.h>
#include <stdint.h>

/// What an atomic operation is, as the scheduler is told of it.
typedef enum {
  InstrumentedAtomicLoad = 0,
  InstrumentedAtomicStore = 1,
  InstrumentedAtomicReadModifyWrite = 2,
  InstrumentedAtomicCompareExchange = 3,
  InstrumentedAtomicFence = 4,
} InstrumentedAtomicKind;

/// When, around an atomic operation, the scheduler is told of it.
typedef enum {
  /// Before the operation: a scheduling point.
  InstrumentedAtomicBefore = 0,
  /// After a compare-exchange that failed, with the value it found: the scheduler answers 1 to
  /// have it made again (it waited for the job that holds the word), 0 to return the failure.
  InstrumentedAtomicFailed = 1,
  /// After an operation that wrote the word.
  InstrumentedAtomicWrote = 2,
} InstrumentedAtomicPhase;

/// Told of each atomic operation of a listening run's code: its phase, the word's address and
/// size in bytes, its kind, its memory order (0 relaxed … 5 sequentially consistent, as the
/// sanitizer's interface numbers them), the value found (after a failure) and the caller's address.
typedef int (*InstrumentedAtomicHandler)(int phase, const void *address, int size, int kind, int order, uint64_t found,
                                         const void *caller);

/// Told of each plain read or write of a listening run's code: the address, its size in bytes,
/// whether it writes, and the caller's address.
typedef void (*InstrumentedAccessHandler)(const void *address, size_t size, int writes, const void *caller);

/// Told of each happens-before edge the concurrency runtime marks for the thread sanitizer, in a
/// listening run: `acquires` 1 for an acquire of `address` (a job about to run, a task's result
/// read), 0 for a release (a job enqueued or done, a task completed).
typedef void (*InstrumentedSyncHandler)(int acquires, const void *address);

/// Points the concurrency runtime's thread-sanitizer annotations (`_swift_tsan_acquire` and
/// `_swift_tsan_release`, which it calls where set) at `handler`, chaining to what was set
/// before. Returns 0 where the runtime has no such annotations.
int instrumentation_follow_runtime_sync(InstrumentedSyncHandler handler);

/// A stand-in for the runtime's `swift_once` that calls it, then, in a listening run, tells the
/// sync handler of an acquire of the predicate, and of a release where the call ran the
/// initializer. Written in C: Swift code reading a
/// global or a static property would call `swift_once` itself, and, through the program's slots
/// pointed here, this stand-in again. Returns null where `swift_once` is not found.
const void *instrumentation_marking_once(void);

/// Told of each block of memory the allocator hands out through a stand-in
/// (``instrumentation_following_allocator``) in a listening run: where it starts, and its size.
typedef void (*InstrumentedAllocationHandler)(const void *start, size_t size);

/// Sets the handler told of the blocks the allocator's stand-ins hand out.
void instrumentation_set_allocation_handler(InstrumentedAllocationHandler handler);

/// The stand-in for the allocator's function `name` (`malloc`, `calloc`, `realloc`,
/// `posix_memalign` or `aligned_alloc`): it calls the function, then, in a listening run, notes
/// the block for the allocation handler, which is told of it later, on the same thread
/// (``instrumentation_tell_pending_allocations``). Null for another name.
const void *instrumentation_following_allocator(const char *name);

/// Tells the allocation handler of the blocks the calling thread's stand-ins noted since it was
/// last told, in the order they were handed out. The entry points do so before they tell of an
/// access or an atomic operation; the scheduler does before a step of the thread ends or pauses.
void instrumentation_tell_pending_allocations(void);

/// Forgets the blocks the calling thread's stand-ins noted and did not tell of: noted outside any
/// run, they are no run's.
void instrumentation_discard_pending_allocations(void);

/// How many blocks the calling thread's stand-ins noted and did not tell of yet.
size_t instrumentation_pending_allocation_count(void);

/// The block the calling thread's stand-ins noted last and did not tell of yet, with the bytes
/// its owner may use (all of them, on Linux, however many were asked for); 0 if there is none.
int instrumentation_last_pending_allocation(const void **start, size_t *size);

/// Marks the beginning and the end of the scheduler's own work on the calling thread, inside a
/// run's step: what it allocates there is not told to the allocation handler, as it depends on
/// the scheduler's state, not on the program.
void instrumentation_library_enter(void);
void instrumentation_library_exit(void);

/// Sets the handlers; until then, and whenever no run listens, the entry points only do the
/// operation.
void instrumentation_set_handlers(InstrumentedAtomicHandler atomic, InstrumentedAccessHandler access);

/// Adds `delta` to the number of runs under way that listen.
void instrumentation_add_listening_runs(int delta);

/// Whether code built with the instrumentation was loaded into this process: its module
/// initializers call `__tsan_init`.
int instrumentation_was_loaded(void);

/// Whether these entry points are the ones instrumented code calls: not where the real thread
/// sanitizer was built in (`swift build --sanitize=thread`), whose runtime defines them.
int instrumentation_entry_points_defined(void);

/// The identity of the executor the calling code runs on, as the concurrency runtime tracks it:
/// the actor, for code on a default actor; null for code on no actor, or where the runtime cannot
/// tell.
const void *instrumentation_current_executor_identity(void);

/// Where `address` lies: the image's path and base address, the nearest symbol's name and
/// address (either may be null). Returns 0 where the dynamic linker cannot tell.
int instrumentation_address_info(const void *address, const char **image, uintptr_t *imageBase, const char **symbol,
                                 uintptr_t *symbolAddress);

/// The Swift type records of the image this code is linked into (its `swift5_type_metadata`
/// section): `*count` 32-bit relative references to context descriptors, or none (TypeRecords.c).
const int32_t *instrumentation_type_records(size_t *count);

#endif
