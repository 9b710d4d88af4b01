#if os(Linux)
  import Explore
  import Synchronization
  import Testing

  /// Lines written by the runs of one program.
  private final class Log: Sendable {
    let lines = Mutex<[String]>([])
    func add(_ line: String) { lines.withLock { $0.append(line) } }
  }

  /// A main-actor object whose deinit runs on the main actor: let go elsewhere, the runtime sends
  /// its deinit there as a job that is no task.
  @MainActor
  private final class Screen {
    let log: Log
    init(log: Log) { self.log = log }
    isolated deinit { log.add("deinit") }
  }

  @Suite("Main-actor jobs that are no task")
  struct MainActorDeinitTests {
    @Test("a main-actor class's isolated deinit runs on the main actor under the scheduler")
    func isolatedDeinit() async throws {
      let outcomes = Collected<[String]>()
      let summary = try await explore(.exhaustive, configuration: ExploreConfiguration(progressInterval: nil)) {
        let log = Log()
        await Self.makeAndLetGo(log)
        await Task.yield()
        await MainActor.run { log.add("after") }
        outcomes.add(log.lines.withLock { $0 })
      }
      #expect(summary.claimsEverySchedule(assuming: [.synchronizationRanWhole]), "\(summary)")
      #expect(!outcomes.all.isEmpty && outcomes.all.allSatisfy { Set($0) == ["deinit", "after"] }, "\(outcomes.all)")
    }

    /// Makes a screen on the main actor and lets go of it off the main actor.
    private static func makeAndLetGo(_ log: Log) async {
      let screen = await Screen(log: log)
      _ = screen
    }
  }
#endif
