import Effects

/// Two tasks count hits on an atomic counter, each the way its argument says.
private func twoHits(_ spawn: Spawn, _ hit: @escaping @Sendable (EffectAtomic<Int>) -> Void) async throws {
  let hits = EffectAtomic(0)
  let first = spawn(name: "first") { hit(hits) }
  let second = spawn(name: "second") { hit(hits) }
  _ = await (first.value, second.value)
  let count = hits.load(ordering: .relaxed)
  try check(count == 2, "a hit was lost: the counter is \(count)")
}

extension ClassicBug {
  /// Increments of an atomic counter written as a load and a store: both tasks may load before
  /// either stores, and one hit is lost. No await anywhere, so only scheduling points at the
  /// atomic's accesses show it. The fix retries a compare-and-exchange until it lands.
  public static let atomicLostUpdate = ClassicBug(
    name: "lost update on an atomic, load then store",
    buggy: { spawn in
      try await twoHits(spawn) { hits in
        let seen = hits.load(ordering: .relaxed)
        hits.store(seen + 1, ordering: .relaxed)
      }
    },
    fixed: { spawn in
      try await twoHits(spawn) { hits in
        var seen = hits.load(ordering: .relaxed)
        while true {
          let (exchanged, found) = hits.compareExchange(expected: seen, desired: seen + 1, ordering: .relaxed)
          if exchanged { return }
          seen = found
        }
      }
    },
    randomBudget: 50, pctBudget: 50)
}
