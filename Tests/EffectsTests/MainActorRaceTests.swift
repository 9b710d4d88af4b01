import Effects
import Testing

/// A view model that creates a held task and then performs an effect: before main-actor code ran
/// under the scheduler, the script could look at the program while the main actor was still busy.
@MainActor
final class LoadingViewModel {
  var log: [String] = []

  func start() async {
    Task.effect(name: "refresh") { @MainActor in self.log.append("refreshed") }
    await Reporting.send("started")
    log.append("sent")
  }
}

enum Reporting {
  static let send = AsyncEffect<String, Void>("Reporting.send") { _ in }
}

@Suite("withTestHandler: a main-actor program with a held task", .serialized)
struct MainActorRaceTests {
  /// One script: the task is handed over first, then the effect, then the task runs.
  @MainActor
  static func script() async throws {
    let model = LoadingViewModel()
    try await withTestHandler(taskHandling: .suspend) { @MainActor in
      await model.start()
    } test: { effect in
      let task = try await effect.expectTask("refresh", action: .suspend)
      try await effect.expect(Reporting.send) { #expect($0 == "started") }
      task.enqueue()
    }
    #expect(model.log == ["sent", "refreshed"])
  }

  @Test("1,000 runs one after another never see the program unsettled")
  func serialized() async throws {
    for _ in 0..<1_000 { try await Self.script() }
  }

  @Test("1,000 runs, 20 at a time, never see the program unsettled")
  func parallel() async throws {
    for _ in 0..<50 {
      try await withThrowingTaskGroup(of: Void.self) { group in
        for _ in 0..<20 { group.addTask { try await Self.script() } }
        try await group.waitForAll()
      }
    }
  }
}
