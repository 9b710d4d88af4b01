// Code block 1 of Sources/EffectScheduler/EffectScheduler.docc/EffectScheduler.md, as the article prints it: `SnippetTests` checks, word for word, that
// every Swift block of the articles and the README is the text between the markers of a file here.

// snippet begins
import EffectScheduler

func expectReplay(of program: @escaping @Sendable () async throws -> Void) async throws {
  let first = try await DeterministicScheduler.run(strategy: .random(seed: 1)) { try await program() }
  let again = try await DeterministicScheduler.run(strategy: .replay(first.schedule)) { try await program() }
  assert(again.trace == first.trace)
}
// snippet ends
