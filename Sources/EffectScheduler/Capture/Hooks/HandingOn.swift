#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

// The routing of global jobs (`RuntimeHooks.route`, reached through the enqueue hook or the
// default executor's router) hands a job of a scheduler's task to that scheduler's mailbox, and
// the mailbox of a run that was abandoned hands an adopted task's job back to the global executor,
// where the router sees it again. While the scheduler still owns the task, which it does until
// its run has let go of its paused jobs and returned, that job would go round for ever on one
// thread's stack: a task that awaits a task paused at a lock it holds is such a job, once the run
// is abandoned and the paused task goes on and wakes it. So whatever the hooks hand on themselves
// is marked on the calling thread, and a hook entered meanwhile routes nothing: the job goes
// where it would without any run, to the platform's executor or the hook installed before. A job
// thus passes the routing at most twice on one thread's stack.

/// Marks the threads on which the hooks hand a job on themselves, so that the hooks do not route
/// it, or anything else, again from inside that hand-on.
enum HandingOn {
  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()

  /// Whether the calling thread is inside a hand-on of the hooks: a job bound for the global
  /// executor now must pass on unrouted.
  static var isUnderWay: Bool { pthread_getspecific(key) != nil }

  /// Calls `body`, which hands a job on, with the calling thread marked; nested calls keep the
  /// mark until the outermost one returns.
  static func mark<Result>(_ body: () -> Result) -> Result {
    guard !isUnderWay else { return body() }
    pthread_setspecific(key, UnsafeRawPointer(bitPattern: 1))
    defer { pthread_setspecific(key, nil) }
    return body()
  }
}
