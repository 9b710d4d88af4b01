import EffectScheduler

/// The test script's view of the program under ``withTestHandler(taskHandling:streamHandling:configuration:isolation:fileID:filePath:line:column:_:test:)``:
/// each effect the program performs and no inner handler takes arrives here, in order, and the
/// program waits until the script answers it.
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
/// Each call waits until the program has settled, that is until it waits on the script or has
/// ended; after answering, it waits until the program has settled again, so the script can check
/// the program's state between two effects.
public struct TestHandler: Sendable {
  let session: TestSession

  /// Passes the next effect to the next handler out, or to its default implementation when there
  /// is none; a task the program created is enqueued, and an element a stream yielded delivered.
  ///
  /// ```swift
  /// try await effect.expect(Console.readLine, return: "Hi")
  /// try await effect.yield()  // the print of "Hi" goes to the handler outside withTestHandler
  /// ```
  public func yield(fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) async throws {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let pending = try await session.next(expecting: "an effect to yield", at: site) { _ in true }
    switch pending.subject {
    case .effect(_, let slot):
      slot.storeYield()
      await session.answer(pending)
    case .task(let task):
      session.take(pending)
      session.enqueue(task)
      await session.waitUntilSettled()
    case .element(let element):
      session.take(pending)
      await session.deliver(element)
    }
  }

  /// Answers the next effect, which must be named `name`, take `Arguments`, return `Result` and
  /// throw or not as `canThrow` says, with what `reply` makes of its arguments; a mismatch is
  /// recorded and thrown.
  func answer<Arguments, Result: Sendable>(
    _ name: String, arguments _: Arguments.Type, returning _: Result.Type, canThrow: Bool,
    isolation: isolated (any Actor)?, at site: CallSite,
    _ reply: (Arguments) async throws -> ReplySlot.Reply
  ) async throws {
    let pending = try await session.next(expecting: name, at: site) { !$0.isElement() }
    guard pending.name == name, case .effect(let arguments, let slot) = pending.subject,
      let arguments = arguments as? Arguments, slot.accepts(Result.self, canThrow: canThrow)
    else {
      throw session.record(EffectTestFailure(.mismatch(expected: name, performed: pending.description), at: site))
    }
    slot.store(try await reply(arguments))
    await session.answer(pending)
  }
}
