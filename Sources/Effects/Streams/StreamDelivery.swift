import EffectScheduler

/// The task that carries the elements of a stream made with `.effect` under a scheduler from the
/// continuation the program yields into to the stream its consumer reads.
///
/// The continuation handed to the program is that of a stream of its own, the source, which this
/// task reads, so every element passes through one of its steps: there it is noted in the trace
/// (`ticks ← 3`), and either put where the consumer reads it, which makes a waiting consumer
/// ready, or, when the test script expects the stream's elements, handed to the script. Being a
/// task of the scheduler, its steps interleave with everything else the program does.
enum StreamDelivery {
  /// Whether a test script in scope takes the elements of streams made now over
  /// (`streamHandling: .expect`): only then do they pass through a delivery task. Otherwise the
  /// stream is a plain one.
  static func scriptTakesElements(on scheduler: DeterministicScheduler) -> Bool {
    EffectScope.current.script(controlling: scheduler)?.streamHandling == .expect
  }

  /// Starts the task for the stream named `name`, reading `source` and delivering to `outlet`,
  /// and returns it; cancelling it stops the delivery and ends the source.
  static func start<Source: AsyncSequence & Sendable>(
    _ name: String, from source: Source, to outlet: StreamOutlet<Source.Element>, on scheduler: DeterministicScheduler
  ) -> Task<Void, Never> where Source.Element: Sendable {
    let script = EffectScope.current.script(controlling: scheduler)
    let scripted = script.flatMap { $0.streamHandling == .expect ? ScriptedStream(name, outlet: outlet, session: $0) : nil }
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
          scheduler.noteInTrace("\(name) ← \(String(reflecting: element))")
          if let scripted {
            scripted.hand(element)
          } else {
            outlet.yield(element)
          }
        }
      } catch {
        ending = error
      }
      if let scripted {
        scripted.sourceDidEnd(throwing: ending)
      } else {
        outlet.finish(ending)
      }
    }
  }
}
