import Explore
import Testing

@Suite("Expectations inside explore")
struct ExpectInsideExploreTests {
  @Test("an #expect that fails inside the body is recorded on the test that explores")
  func expectationIsAttributed() async throws {
    // Were the issue recorded outside this test, withKnownIssue would not see it, and the run
    // would fail with an issue of an unknown test.
    await withKnownIssue {
      try await explore(.exhaustive(maxSchedules: 1)) {
        #expect(Bool(false), "checked inside the explored body")
      }
    }
  }
}
