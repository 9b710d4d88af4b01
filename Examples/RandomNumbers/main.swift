// A main-actor view model fetches a random number in a plain `Task {}` each time the user asks.
// The user picks 0...10, then 100...200 before the first answer is in: the buggy model shows the
// answer that arrives last, so under some schedules the screen ends on a number from the old
// range. Explore finds that schedule; the fixed model, which cancels the request in flight, passes
// every schedule; a `withTestHandler` script then walks the fixed model through it by hand.
import Effects
import Explore

struct StaleNumber: Error, CustomStringConvertible {
  let description: String
}

/// Two requests in a row; the fake server answers `lowerBound + 7` after a suspension, so the
/// answers can arrive in either order.
func userChangesRange(cancelsStaleRequests: Bool) -> @Sendable () async throws -> Void {
  { @MainActor in
    try await with {
      RandomNumber.fetch.handler { range in
        await Task.yield()  // the network
        return range.lowerBound + 7
      }
    } perform: {
      let model = RandomNumberViewModel(cancelsStaleRequests: cancelsStaleRequests)
      let first = model.getRandomNumber(in: 0...10)
      let second = model.getRandomNumber(in: 100...200)
      await first.value
      await second.value
      guard let number = model.number, let range = model.range, range.contains(number) else {
        throw StaleNumber(description: "the screen says \"\(model.message)\", but the user asked for a number in \(model.range!)")
      }
    }
  }
}

let quiet = ExploreConfiguration(progressInterval: nil)

print("(a) Exploring the view model that shows whichever answer arrives last…\n")
do {
  let summary = try await explore(.exhaustive, configuration: quiet, userChangesRange(cancelsStaleRequests: false))
  print("no stale number?! \(summary)")
} catch {
  print(error)
  if let schedule = error.schedule {
    do {
      try await explore(.replay(schedule), configuration: quiet, userChangesRange(cancelsStaleRequests: false))
      print("\nthe replay of \(schedule) passed?!")
    } catch {
      print("\nReplaying \(schedule) fails the same way: \(error.summary)")
    }
  }
}

print("\n(b) Exploring the view model that cancels the request in flight…")
let summary = try await explore(.exhaustive, configuration: quiet, userChangesRange(cancelsStaleRequests: true))
print("every schedule passes: \(summary)")

print("\n(c) A script answers each fetch of the fixed model by hand:")
let model = RandomNumberViewModel(cancelsStaleRequests: true)
try await withTestHandler { @MainActor in
  let first = model.getRandomNumber(in: 0...10)
  await model.getRandomNumber(in: 100...200).value
  await first.value
  await model.getRandomNumber(in: 100...200).value
  await model.getRandomNumber(in: 100...200).value
} test: { effect in
  func check(_ condition: Bool, _ what: String) {
    print("  \(condition ? "ok  " : "FAIL") \(what)")
    if !condition { fatalError("the script found a bug") }
  }
  try await effect.expect(RandomNumber.fetch) { range in
    check(range == 0...10, "the first request asks for a number in 0...10")
    return 3
  }
  check(model.message == "", "its answer, 3, comes after the user changed the range: dropped")
  try await effect.expect(RandomNumber.fetch) { range in
    check(range == 100...200, "the second request asks for a number in 100...200")
    return 150
  }
  check(model.message == "150 is a good number", "its answer shows: \"\(model.message)\"")
  try await effect.expect(RandomNumber.fetch, return: 150)
  check(model.message == "It's the same number again, boooring!!", "the same again: \"\(model.message)\"")
  struct Offline: Error {}
  try await effect.expect(RandomNumber.fetch) { _ in throw Offline() }
  check(model.message == "Bad error", "a failed fetch: \"\(model.message)\"")
}
print("the script passes")
