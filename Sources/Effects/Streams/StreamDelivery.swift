import EffectScheduler

/// The task that hands the elements of a stream made with `.effect` to a test script that takes
/// them over (`withTestHandler(streamHandling: .expect)`).
///
/// The continuation handed to the program is then that of a stream of its own, the source, which
/// this task reads, so every element passes through one of its steps: there it is noted in the
/// trace (`ticks ← 3`) and handed to the script, which delivers it to the stream the consumer
/// reads. Being a task of the scheduler, its steps interleave with everything else the program
/// does. With no such script, a stream made with `.effect` is a plain stream, and there is no
/// delivery task.
enum StreamDelivery {
  /// The test script in scope, if it takes the elements of streams made now over.
  static func script(takingElementsOn scheduler: DeterministicScheduler) -> TestSession? {
    EffectScope.current.script(controlling: scheduler).flatMap { $0.streamHandling == .expect ? $0 : nil }
  }

  /// Starts the task for the stream named `name`, reading `source` and handing each element to
  /// `script`, which delivers it to `outlet`, and returns it; cancelling it stops the delivery and
  /// ends the source.
  static func start<Source: AsyncSequence & Sendable>(
    _ name: String, from source: Source, to outlet: StreamOutlet<Source.Element>, script: TestSession, on scheduler: DeterministicScheduler
  ) -> Task<Void, Never> where Source.Element: Sendable {
    let scripted = ScriptedStream(name, outlet: outlet, session: script)
    return scheduler.spawn(name: name, priority: nil) {
      let waitingOn = "the next element yielded to \"\(name)\""
      var ending: (any Error)?
      var elements = source.makeAsyncIterator()
      do {
        while true {
          // For a deadlock report, should the producer never yield again.
          scheduler.noteCurrentTaskWaits(on: waitingOn)
          guard let element = try await elements.next() else { break }
          // The consumer stopped reading, which ended the stream: elements left in the source go
          // nowhere, as they would in a plain stream.
          if Task.isCancelled { return }
          scheduler.noteInTrace(NotedStream.delivery(of: element, to: name))
          scripted.hand(element)
        }
      } catch {
        ending = error
      }
      scripted.sourceDidEnd(throwing: ending)
    }
  }
}
