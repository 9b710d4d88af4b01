internal import EffectScheduler
import Explore
import Testing

/// A trait that runs the test function under `explore(_:configuration:_:)`,
/// once a schedule, so the test needs no wrapping closure.
///
/// ```swift
/// @Test(.explore(.exhaustive))
/// func transferKeepsTotal() async throws {
///   let bank = Bank(balances: [100, 0])
///   let a = Task.effect(name: "A") { await bank.transfer(50, from: 0, to: 1) }
///   let b = Task.effect(name: "B") { await bank.transfer(30, from: 1, to: 0) }
///   _ = await (a.value, b.value)
///   #expect(await bank.total == 100)
/// }
/// ```
///
/// Each schedule runs the test function from scratch: a test in a suite type gets a new instance
/// of it every time. A failing schedule is recorded as one issue at the `@Test`, whose first line
/// is the report's: what went wrong. The trait must come after every other trait that provides a
/// scope (such as `.compactMapIssues`): the test function it explores is the function alone, so a
/// scope inside it would not be entered; when one comes after, the test fails with an issue saying
/// so.
public struct ExploreTrait: TestTrait, TestScoping {
  /// How the schedules are picked.
  public var strategy: ExplorationStrategy
  /// The exploration's knobs.
  public var configuration: ExploreConfiguration

  /// Explores each test case, not the test as a whole.
  public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
    testCase == nil ? nil : self
  }

  /// Runs the test case's function under exploration; records the failing schedule's report as an
  /// issue at the `@Test`.
  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    let site = test.sourceLocation
    if let misplaced = scopesInside(test, testCase) {
      Issue.record("`.explore` must come after every trait that provides a scope; \(misplaced) comes after it", sourceLocation: site)
      return
    }
    // Swift Testing hands a trait the rest of the test as a closure it must not keep; schedules
    // that deadlock keep their body forever, so the trait explores the test case's own function.
    typealias Function = @Sendable () async throws -> Void
    let found: Any? = testCase.flatMap { Mirror(reflecting: $0).descendant("body") }
    guard let body = found as? Function else {
      Issue.record("`.explore` cannot find the test function in this version of Swift Testing; call explore { … } in the test instead", sourceLocation: site)
      return
    }
    // Nothing around the test function can catch the failure, so it is recorded here, as the
    // test's one issue, instead of as a warning beside the error it would throw.
    let fileID: String = site.fileID
    let filePath: String = site.filePath
    do {
      try await TestFramework.$failuresAreExpected.withValue(true) {
        try await Explore.explore(
          strategy, configuration: configuration, fileID: fileID, filePath: filePath, line: site.line, column: site.column, body)
      }
    } catch {
      Issue.record(ReportedFailure(report: String(describing: error)), sourceLocation: site)
    }
  }

  /// The traits after this one that provide a scope, named; `nil` when there are none.
  private func scopesInside(_ test: Test, _ testCase: Test.Case?) -> String? {
    var names: [String] = []
    var isAfter = false
    for trait in test.traits {
      if isAfter, providesScope(trait, test, testCase) { names.append("\(type(of: trait))") }
      if trait is Self { isAfter = true }
    }
    return names.isEmpty ? nil : names.joined(separator: ", ")
  }

  private func providesScope<T: Trait>(_ trait: T, _ test: Test, _ testCase: Test.Case?) -> Bool {
    trait.scopeProvider(for: test, testCase: testCase) != nil
  }
}

extension Trait where Self == ExploreTrait {
  /// Runs the test function under `strategy`, once a schedule; see ``ExploreTrait``.
  public static func explore(
    _ strategy: ExplorationStrategy = .default, configuration: ExploreConfiguration = ExploreConfiguration()
  ) -> Self {
    ExploreTrait(strategy: strategy, configuration: configuration)
  }
}
