import EffectScheduler

/// Runs `program` under a test script: every effect the program performs that no handler inside
/// it takes goes to `script`, in order, and the program waits until the script answers.
///
/// ```swift
/// try await withTestHandler {
///   echo()
/// } test: { effect in
///   try await effect.expect(Console.readLine, return: "Hello")
///   try await effect.expect(Console.print) { #expect($0 == "Hello") }
///   try await effect.expect(Console.readLine, return: nil)
/// }
/// ```
///
/// The program runs on a `DeterministicScheduler` with its FIFO strategy, with the handlers of
/// the caller's scope outside the script's, so ``TestHandler/yield(fileID:filePath:line:column:)`` passes an
/// effect to them. The script runs in the caller's task and isolation, so it can check the
/// program's state between two effects. A nonisolated script, called outside any scheduler, runs
/// on the program's thread while the program waits on it, so that a hand-off costs no thread
/// wake-up; it must not block that thread waiting for the program, which could not go on. The program has finished when it has returned and every
/// task it created that can run has finished.
///
/// Nothing hangs: when the program ends, a script still waiting for an effect fails; when the
/// script ends, what the program still waits on fails, and an effect it performs afterwards is
/// reported. A non-throwing effect that cannot be answered any more abandons the program, and
/// this function stops waiting for it: an asynchronous one leaves its task waiting for good, and a
/// synchronous one lets its thread go on with the emptiest reply (`nil`, `()`, or else the next
/// handler out), so that no thread outlives the test.
///
/// `taskHandling` decides when the tasks the program creates with `Task.effect` start, and
/// `streamHandling` whether the elements of streams it makes with `AsyncStream.effect` go to the
/// script.
///
/// `configuration` sets the scheduler's knobs, such as how long it waits on the outside world
/// before it reports a deadlock.
///
/// When Swift Testing runs the test and the test target links `ExploreTesting`, that first failure
/// is also recorded as a warning at its script line; the thrown error is what fails the test,
/// unless the caller catches it. `requireFailure(EffectTestFailure.self) { … }` from
/// `ExploreTesting` returns the failure and leaves no warning.
///
/// - Returns: what `program` returned.
/// - Throws: the first ``EffectTestFailure`` of the run; otherwise an error the script threw, or
///   the program's error, which can be a `SchedulerError` when it deadlocks.
public func withTestHandler<Value: Sendable>(
  taskHandling: TaskHandling = .automaticallyEnqueue,
  streamHandling: StreamHandling = .automatic,
  configuration: SchedulerConfiguration = SchedulerConfiguration(),
  isolation: isolated (any Actor)? = #isolation,
  fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
  _ program: @escaping @Sendable () async throws -> Value,
  test script: (TestHandler) async throws -> Void
) async throws -> Value {
  // A nonisolated script outside any scheduler can run anywhere, so it runs on the program's
  // driver thread (see `GuestExecutor`); one isolated to an actor, or a step of an outer program,
  // stays where it is.
  let session = TestSession(
    taskHandling: taskHandling, streamHandling: streamHandling,
    site: CallSite(fileID: fileID, filePath: filePath, line: line, column: column),
    scriptIsGuest: isolation == nil && DeterministicScheduler.current == nil)
  let scope = EffectScope.current.adding([EffectHandler(.script(session))])
  // Ignored tasks nobody awaits are left unfinished on purpose.
  var configuration = configuration
  if taskHandling == .ignore { configuration.reportsLeakedTasks = false }
  let run = Task { [configuration] in
    do {
      let execution = try await DeterministicScheduler.run(configuration: configuration) {
        try await scope.perform { try await session.runProgram(program) }
      }
      session.programDidEnd(error: nil)
      return execution.value
    } catch {
      session.programDidEnd(error: error)
      throw error
    }
  }
  // The script's end is recorded before its job ends: a script running on the driver thread is
  // over before the program takes another step.
  func runScript() async -> (any Error)? {
    var scriptError: (any Error)?
    do {
      try await script(TestHandler(session: session))
    } catch {
      scriptError = error
    }
    session.scriptDidEnd()
    return scriptError
  }
  let scriptError =
    if let guest = session.guest {
      await withTaskExecutorPreference(guest) { await runScript() }
    } else {
      await runScript()
    }
  await session.waitUntilProgramEnds()
  if let scriptError, !(scriptError is EffectTestFailure) { throw scriptError }
  if let failure = session.failures.first {
    await TestFramework.recordWarning(failure.sentence, at: failure.site)
    throw failure
  }
  return try await run.value
}
