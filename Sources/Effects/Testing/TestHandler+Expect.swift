import EffectScheduler

// One `expect` for each kind of effect, with a handler or with a fixed return value.
extension TestHandler {
  /// Expects the program's next effect to be `effect`, and answers it with what `handler` returns
  /// for its arguments.
  ///
  /// ```swift
  /// try await effect.expect(Console.print) { line in #expect(line == "Hello") }
  /// ```
  ///
  /// An error `handler` throws ends the expectation with that error; the effect stays unanswered.
  public func expect<each Argument, Result>(
    _ effect: Effect<repeat each Argument, Result>,
    isolation: isolated (any Actor)? = #isolation,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
    _ handler: (repeat each Argument) async throws -> Result
  ) async throws {
    try await answer(
      effect.name, arguments: (repeat each Argument).self, returning: Result.self, canThrow: false,
      isolation: isolation, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    ) { arguments in .returned(try await handler(repeat each arguments)) }
  }

  /// Expects the program's next effect to be `effect`, and answers it with `value`.
  ///
  /// ```swift
  /// try await effect.expect(Console.readLine, return: "Hello")
  /// ```
  public func expect<each Argument, Result>(
    _ effect: Effect<repeat each Argument, Result>, return value: Result,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
  ) async throws {
    try await answer(
      effect.name, arguments: (repeat each Argument).self, returning: Result.self, canThrow: false,
      isolation: nil, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    ) { _ in .returned(value) }
  }

  /// Expects the program's next effect to be `effect`, and answers it with what `handler` returns
  /// for its arguments.
  public func expect<each Argument, Result>(
    _ effect: AsyncEffect<repeat each Argument, Result>,
    isolation: isolated (any Actor)? = #isolation,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
    _ handler: (repeat each Argument) async throws -> Result
  ) async throws {
    try await answer(
      effect.name, arguments: (repeat each Argument).self, returning: Result.self, canThrow: false,
      isolation: isolation, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    ) { arguments in .returned(try await handler(repeat each arguments)) }
  }

  /// Expects the program's next effect to be `effect`, and answers it with `value`.
  public func expect<each Argument, Result>(
    _ effect: AsyncEffect<repeat each Argument, Result>, return value: Result,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
  ) async throws {
    try await answer(
      effect.name, arguments: (repeat each Argument).self, returning: Result.self, canThrow: false,
      isolation: nil, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    ) { _ in .returned(value) }
  }

  /// Expects the program's next effect to be `effect`, and answers it with what `handler` returns
  /// for its arguments; an error `handler` throws is thrown into the program.
  ///
  /// ```swift
  /// try await effect.expect(HTTP.data) { url in throw URLError(.notConnectedToInternet) }
  /// ```
  public func expect<each Argument, Result>(
    _ effect: ThrowingAsyncEffect<repeat each Argument, Result>,
    isolation: isolated (any Actor)? = #isolation,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
    _ handler: (repeat each Argument) async throws -> Result
  ) async throws {
    try await answer(
      effect.name, arguments: (repeat each Argument).self, returning: Result.self, canThrow: true,
      isolation: isolation, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    ) { arguments in
      do {
        return .returned(try await handler(repeat each arguments))
      } catch {
        return .threw(error)
      }
    }
  }

  /// Expects the program's next effect to be `effect`, and answers it with `value`.
  public func expect<each Argument, Result>(
    _ effect: ThrowingAsyncEffect<repeat each Argument, Result>, return value: Result,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
  ) async throws {
    try await answer(
      effect.name, arguments: (repeat each Argument).self, returning: Result.self, canThrow: true,
      isolation: nil, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    ) { _ in .returned(value) }
  }

  /// Expects the program to ask the stream of `effect` for its next element, and answers with what
  /// `handler` returns for the effect's arguments: an element, `nil` to finish the stream, or an
  /// error, thrown, to fail it.
  ///
  /// ```swift
  /// try await effect.expect(Random.numbers) { range in 4 }
  /// try await effect.expect(Random.numbers) { _ in nil }  // end of the stream
  /// ```
  public func expect<each Argument, Element>(
    _ effect: StreamEffect<repeat each Argument, Element>,
    isolation: isolated (any Actor)? = #isolation,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
    _ handler: (repeat each Argument) async throws -> Element?
  ) async throws {
    try await answer(
      effect.name, arguments: (repeat each Argument).self, returning: Element?.self, canThrow: true,
      isolation: isolation, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    ) { arguments in
      do {
        return .returned(try await handler(repeat each arguments) as Any)
      } catch {
        return .threw(error)
      }
    }
  }

  /// Expects the program to ask the stream of `effect` for its next element, and answers with
  /// `element`, or with `nil` to finish the stream.
  public func expect<each Argument, Element>(
    _ effect: StreamEffect<repeat each Argument, Element>, return element: Element?,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
  ) async throws {
    try await answer(
      effect.name, arguments: (repeat each Argument).self, returning: Element?.self, canThrow: true,
      isolation: nil, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    ) { _ in .returned(element as Any) }
  }
}
