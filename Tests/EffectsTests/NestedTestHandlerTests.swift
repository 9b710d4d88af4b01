import Effects
import ExploreTesting
import Testing

private enum Nest {
  static let double = AsyncEffect<Int, Int>("Nest.double") { $0 * 2 }
  static let add = Effect<Int, Int, Int>("Nest.add") { $0 + $1 }
}

@Suite("withTestHandler inside a program under withTestHandler")
struct NestedTestHandlerTests {
  @Test("the inner script sees the effects of the inner program, synchronous ones included, and the outer script the rest")
  func innerScriptSeesInnerEffects() async throws {
    let value = try await withTestHandler {
      let outer = await Nest.double(1)
      let inner = try await withTestHandler {
        await Nest.double(10) + Nest.add(1, 2)
      } test: { effect in
        try await effect.expect(Nest.double, return: 100)
        try await effect.expect(Nest.add, return: 7)
      }
      let after = await Nest.double(3)
      return outer + inner + after
    } test: { effect in
      try await effect.expect(Nest.double, return: 2)
      try await effect.expect(Nest.double, return: 6)
    }
    #expect(value == 2 + 107 + 6)
  }

  @Test("an inner script that fails makes the outer program throw its failure, which the outer call reports")
  func innerFailureReachesOuterCall() async throws {
    let failure = try await requireFailure(EffectTestFailure.self) {
      try await withTestHandler {
        _ = try await withTestHandler {
          await Nest.double(10)
        } test: { effect in
          try await effect.expect(Nest.add, return: 7)
        }
      } test: { _ in }
    }
    #expect(failure.problem == .mismatch(expected: "Nest.add", performed: "Nest.double(10)"))
  }
}
