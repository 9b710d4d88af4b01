import Effects
import Testing

/// The failure `body` throws; `nil`, with an issue recorded, when it throws none.
///
/// Unlike `#require(throws:)`, it is no macro, so the script lines inside `body` keep their own
/// line numbers, which tests compare with the failure's.
func thrownFailure(
  sourceLocation: SourceLocation = #_sourceLocation, of body: () async throws -> Void
) async -> EffectTestFailure? {
  do {
    try await body()
    Issue.record("expected an EffectTestFailure", sourceLocation: sourceLocation)
  } catch let failure as EffectTestFailure {
    return failure
  } catch {
    Issue.record("expected an EffectTestFailure, got \(error)", sourceLocation: sourceLocation)
  }
  return nil
}
