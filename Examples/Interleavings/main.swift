import EffectScheduler
import Effects
actor Log { var e: [String] = []; func add(_ s: String) { e.append(s) } }
let x = try await DeterministicScheduler.run(strategy: .random(seed: 3)) {
  let log = Log()
  let names: [String] = ["A", "B"]
  let tasks = names.map { name in Task.effect(name: name) { for i in 0..<2 { await log.add("\(name)\(i)"); await Task.yield() } } }
  for t in tasks { await t.value }
  return await log.e
}
print(x.value, x.schedule)
print(x.trace.table)
