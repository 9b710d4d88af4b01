import EffectScheduler

/// An element a stream yielded, as the test script holds it under ``StreamHandling/expect``: the
/// consumer sees it only once the script delivers it.
///
/// ```swift
/// let tick = try await effect.expectElement(of: "ticks", as: Int.self)
/// #expect(tick.value == 3)
/// await tick.deliver()
/// #expect(model.label == "tick 3")
/// ```
///
/// An element still held when the script ends is delivered then.
public struct TestElement<Element: Sendable>: Sendable {
  let session: TestSession
  let element: HeldElement

  /// The element, as the producer yielded it.
  public let value: Element

  init(session: TestSession, element: HeldElement, value: Element) {
    self.session = session
    self.element = element
    self.value = value
  }

  /// The name of the stream that yielded it.
  public var stream: String { element.stream.name }

  /// Lets the element reach the consumer, after the elements delivered before it, and waits until
  /// the program has settled again, so the script can check what the consumer did with it.
  /// Delivering it twice, or after its stream ended, does nothing.
  public func deliver() async {
    await session.deliver(element)
  }

  /// Finishes the stream in place of this element: the consumer sees the end of the stream after
  /// the elements delivered before, and this element and the stream's others not yet delivered are
  /// dropped. Then waits until the program has settled again.
  public func finishStream() async {
    await session.endStream(of: element, throwing: nil)
  }

  /// Ends the stream with `error` in place of this element, as ``finishStream()`` does; the
  /// consumer's loop throws `error`. Only an `AsyncThrowingStream` can fail: for an `AsyncStream`
  /// this throws an ``EffectTestFailure`` and leaves the stream alone.
  public func finishStream(
    throwing error: any Error, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
  ) async throws {
    guard element.stream.canFail else {
      let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
      throw session.record(EffectTestFailure(.streamCannotFail(stream: stream), at: site))
    }
    await session.endStream(of: element, throwing: error)
  }
}
