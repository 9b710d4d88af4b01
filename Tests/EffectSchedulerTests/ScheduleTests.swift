import EffectScheduler
import Testing

@Suite("Schedule encoding")
struct ScheduleTests {
  @Test("repeated steps are written once with a count")
  func runLengthEncoding() throws {
    let schedule = Schedule([.task(TaskID(0)), .task(TaskID(1)), .task(TaskID(1)), .task(TaskID(1)), .actorJob(position: 2), .task(TaskID(12))])
    #expect(schedule.description == "s1:0.1*3.a2.12")
    #expect(try Schedule(parsing: " s1:0.1*3.a2.12\n") == schedule)
    #expect(try Schedule(parsing: "s1:") == Schedule())
  }

  @Test(
    "corrupted strings are rejected with a reason",
    arguments: [
      ("0.1.2", "does not start"),
      ("s1:0..1", "step 2"),
      ("s1:0.x", "step 2, \"x\""),
      ("s1:0.1*0", "bad repeat count"),
      ("s1:0.1*99999999999", "bad repeat count"),
      ("s1:-1", "step 1"),
      ("s1:a", "step 1"),
      ("s1:1*2*3", "step 1"),
      ("s1:1*2.0*9999999", "more than 10000000 steps"),
    ])
  func corrupted(input: String, problem: String) {
    #expect {
      _ = try Schedule(parsing: input)
    } throws: { error in
      String(describing: error).contains(problem)
    }
  }
}
