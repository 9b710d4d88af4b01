// Code block 2 of Sources/Effects/Effects.docc/EffectsAndHandlers.md, as the article prints it: `SnippetTests` checks, word for word, that
// every Swift block of the articles and the README is the text between the markers of a file here.

// snippet begins
import Effects

@MainActor final class TickModel {
  private(set) var shown: [Int] = []
  func show(_ tick: Int) { shown.append(tick) }
}

@MainActor func showTicks(on model: TickModel) async {
  let (ticks, continuation) = AsyncStream.makeEffectStream("ticks", of: Int.self)
  Task.effect(name: "clock") {
    for tick in 1...3 { continuation.yield(tick) }
    continuation.finish()
  }
  for await tick in ticks { model.show(tick) }
}
// snippet ends
