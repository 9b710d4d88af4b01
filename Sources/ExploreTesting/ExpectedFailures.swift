internal import EffectScheduler
import Testing

/// Runs `body`, which should fail with a `Failure`, and returns that failure: the way to show that
/// a test catches a bug.
///
/// ```swift
/// @Test func theUnfixedBankLosesMoney() async throws {
///   let failure = try await requireFailure(ExplorationFailure.self) {
///     try await explore(.exhaustive) { try await transferTwice(fixed: false) }
///   }
///   #expect(failure.underlyingError is LostMoney)
/// }
/// ```
///
/// `explore` and `withTestHandler` leave a warning at the failing call or script line when they
/// throw a failure; inside `body` they leave none. This function records an issue, as
/// `#require(throws:)` does, only when `body` returns or throws an error of another type.
/// `#expect(throws:)` and `#require(throws:)` work too, with the warning in the test's log.
///
/// - Returns: the failure `body` threw.
/// - Throws: when `body` did not throw a `Failure`, after recording an issue at `sourceLocation`.
@discardableResult
public func requireFailure<Failure: Error, Value>(
  _ failureType: Failure.Type,
  isolation: isolated (any Actor)? = #isolation,
  sourceLocation: SourceLocation = #_sourceLocation,
  performing body: () async throws -> Value
) async throws -> Failure {
  try await withExpectedFailures {
    try await #require(throws: Failure.self, sourceLocation: sourceLocation) {
      _ = try await body()
    }
  }
}

/// Runs `body`, in which `explore` and `withTestHandler` leave no warning for the failures they
/// throw: for code that catches those failures and checks them itself.
///
/// ```swift
/// let outcome: String
/// do {
///   try await withExpectedFailures { try await explore(.exhaustive) { try await program() } }
///   outcome = "passed"
/// } catch {
///   outcome = error.summary
/// }
/// ```
///
/// Issues that code in `body` records itself, such as a failed `#expect`, are recorded as usual.
public func withExpectedFailures<Value, Failure: Error>(
  isolation: isolated (any Actor)? = #isolation,
  _ body: () async throws(Failure) -> Value
) async throws(Failure) -> Value {
  let result: Result<Value, Failure> = await TestFramework.$failuresAreExpected.withValue(true) {
    do throws(Failure) {
      return .success(try await body())
    } catch {
      return .failure(error)
    }
  }
  return try result.get()
}
