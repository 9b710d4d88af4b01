import EffectScheduler

extension TestHandler {
  /// Expects the program's next step to be an element yielded to the stream named `stream`, made
  /// with `AsyncStream.effect` or `AsyncThrowingStream.effect`, under ``StreamHandling/expect``,
  /// and takes it, held: it reaches the consumer when the script delivers it.
  ///
  /// ```swift
  /// let first = try await effect.expectElement(of: "ticks", as: Int.self)
  /// let second = try await effect.expectElement(of: "ticks", as: Int.self)
  /// #expect(first.value == 1)
  /// await second.deliver()   // the consumer sees 2, then 1
  /// await first.deliver()
  /// ```
  ///
  /// Elements wait apart from effects: the script may take an effect the program performed after
  /// an element was yielded before taking the element, and the elements of two streams in either
  /// order, but those of one stream in the order they were yielded. With no element of `stream`
  /// waiting, another effect or element is a mismatch, as is an element of another type; a stream
  /// that yields nothing more fails when the program finishes or can go no further.
  public func expectElement<Element: Sendable>(
    of stream: String, as type: Element.Type = Element.self,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
  ) async throws -> TestElement<Element> {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let expected = "an element of \"\(stream)\""
    let pending = try await session.next(expecting: expected, at: site) { $0.isElement(of: stream) }
    guard case .element(let element) = pending.subject, element.stream.name == stream else {
      throw session.record(EffectTestFailure(.mismatch(expected: expected, performed: pending.description), at: site))
    }
    guard let value = element.value as? Element else {
      let expected = "\(expected) of type \(Element.self)"
      throw session.record(EffectTestFailure(.mismatch(expected: expected, performed: pending.description), at: site))
    }
    session.take(pending)
    return TestElement(session: session, element: element, value: value)
  }
}
