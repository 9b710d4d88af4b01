@testable import EffectScheduler
import Testing

@Suite("Events as a run records them")
struct RecordedEventTests {
  @Test(
    "a recorded event reads back as the trace event it records, absent ids and flags included",
    arguments: [
      TraceEvent(step: 0, task: TaskID(0), kind: .spawned),
      TraceEvent(step: 7, task: TaskID(3), kind: .resumed, fromOutside: true),
      TraceEvent(step: 12, task: TaskID(2), kind: .started, onMainActor: true),
      TraceEvent(step: 4, task: nil, kind: .actorJob, scheduledBy: TaskID(1), actor: 0),
      TraceEvent(step: 5, task: nil, kind: .actorJob, fromOutside: true, actor: 2),
      TraceEvent(step: 1_000_000, task: TaskID(70_000), kind: .completed, fromOutside: true, onMainActor: true),
    ])
  func roundTrip(event: TraceEvent) {
    let recorded = RecordedEvent(
      step: event.step, task: event.task, kind: event.kind, fromOutside: event.fromOutside, scheduledBy: event.scheduledBy,
      onMainActor: event.onMainActor, actor: event.actor)
    #expect(recorded.event == event)
  }

  @Test("events of one step that differ only in their task, kind or flags fold differently into the fingerprint")
  func packedTellsEventsApart() {
    let events = [
      RecordedEvent(step: 3, task: TaskID(1), kind: .resumed),
      RecordedEvent(step: 3, task: TaskID(2), kind: .resumed),
      RecordedEvent(step: 3, task: TaskID(1), kind: .suspended),
      RecordedEvent(step: 3, task: TaskID(1), kind: .resumed, fromOutside: true),
      RecordedEvent(step: 3, task: TaskID(1), kind: .resumed, onMainActor: true),
      RecordedEvent(step: 3, task: nil, kind: .actorJob, scheduledBy: TaskID(1)),
      RecordedEvent(step: 3, task: nil, kind: .actorJob, scheduledBy: TaskID(2)),
    ]
    #expect(Set(events.map(\.packed)).count == events.count)
  }
}
