import Explore
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A program that installs its own hook for the jobs of new tasks, as swift-concurrency-extras'
/// `withMainSerialExecutor` does around a test, runs its tasks under the scheduler all the same.
/// The hook stays installed after the call (as that function leaves it when another was there),
/// so the program runs in a child process: this test binary again, running only
/// ``ForeignEnqueueHookRun``.
@Suite("A program that installs its own enqueue hook")
struct ForeignEnqueueHookTests {
  #if os(Linux)
    @Test("as withMainSerialExecutor does in the explored body: its plain tasks stay under the scheduler, every schedule explored")
    func tasksStayUnderControl() throws {
      let (output, _) = try ChildProcess.run(suite: "ForeignEnqueueHookRun", setting: "EXPLORE_FOREIGN_ENQUEUE_HOOK")
      #expect(output.contains("explored: ") && output.contains("every schedule explored"), "\(output)")
      #expect(!output.contains("work from outside"), "\(output)")
    }
  #endif
}

#if os(Linux)
  private typealias EnqueueOriginal = @convention(thin) (UnownedJob) -> Void
  private typealias EnqueueHook = @convention(thin) (UnownedJob, EnqueueOriginal) -> Void

  /// The runtime's hook variable for jobs bound for the global executor.
  private let enqueueHook = UncheckedHookVariable()

  private struct UncheckedHookVariable: @unchecked Sendable {
    let pointer = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "swift_task_enqueueGlobal_hook")!.assumingMemoryBound(to: EnqueueHook?.self)
  }

  /// What swift-concurrency-extras' `withMainSerialExecutor` does: every job bound for the global
  /// executor goes to the main actor for the length of `operation`, and afterwards too if any hook
  /// was installed before.
  @MainActor
  private func withMainSerialExecutorLike(_ operation: @isolated(any) () async -> Void) async {
    let hadOne = enqueueHook.pointer.pointee != nil
    enqueueHook.pointer.pointee = { job, _ in MainActor.shared.enqueue(job) }
    await operation()
    enqueueHook.pointer.pointee = hadOne ? { job, _ in MainActor.shared.enqueue(job) } : nil
  }

  private final class Count: Sendable {
    let value = Mutex(0)
  }

  /// The child's part: two plain tasks started inside the hook's call, each adding one.
  @Suite(.enabled(if: ProcessInfo.processInfo.environment["EXPLORE_FOREIGN_ENQUEUE_HOOK"] != nil))
  struct ForeignEnqueueHookRun {
    @Test func twoPlainTasksInsideTheHooksCall() async throws {
      alarm(60)
      var configuration = ExploreConfiguration(progressInterval: nil)
      configuration.checksDeterminism = false
      let outcome: String
      do {
        let summary = try await explore(.exhaustive, configuration: configuration) {
          let count = Count()
          await withMainSerialExecutorLike {
            let first = Task { count.value.withLock { $0 += 1 } }
            let second = Task { count.value.withLock { $0 += 1 } }
            _ = await (first.value, second.value)
          }
          #expect(count.value.withLock { $0 } == 2)
        }
        outcome = "explored: \(summary)"
      } catch {
        outcome = "failed: \(error)"
      }
      FileHandle.standardError.write(Data((outcome + "\n").utf8))
    }
  }
#endif
