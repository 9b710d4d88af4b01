import Effects
import ExploreTesting
import Testing

/// The reference's program: two tasks that print, created between two prints.
private func program() {
  Console.print("Start")
  Task.effect(name: "Task 1") {
    Console.print("Task 1")
  }
  Task.effect(name: "Task 2") {
    Console.print("Task 2")
  }
  Console.print("Exit")
}

@Suite("withTestHandler: tasks")
struct TaskHandlingTests {
  @Test("enqueued in order, tasks run after the program, in creation order")
  func enqueueInOrder() async throws {
    try await withTestHandler(taskHandling: .suspend) {
      program()
    } test: { effect in
      try await effect.expect(Console.print) { #expect($0 == "Start") }
      try await effect.expectTask("Task 1", action: .enqueue)
      try await effect.expectTask("Task 2", action: .enqueue)
      try await effect.expect(Console.print) { #expect($0 == "Exit") }
      try await effect.expect(Console.print) { #expect($0 == "Task 1") }
      try await effect.expect(Console.print) { #expect($0 == "Task 2") }
    }
  }

  @Test("suspended tasks run in the order the script enqueues them")
  func swappedOrder() async throws {
    try await withTestHandler(taskHandling: .suspend) {
      program()
    } test: { effect in
      try await effect.expect(Console.print) { #expect($0 == "Start") }
      let task1 = try await effect.expectTask("Task 1", action: .suspend)
      let task2 = try await effect.expectTask("Task 2", action: .suspend)
      task2.enqueue()
      task1.enqueue()
      try await effect.expect(Console.print) { #expect($0 == "Exit") }
      try await effect.expect(Console.print) { #expect($0 == "Task 2") }
      try await effect.expect(Console.print) { #expect($0 == "Task 1") }
    }
  }

  @Test("automatically enqueued, nested tasks run in creation order")
  func nestedTasks() async throws {
    try await withTestHandler(taskHandling: .automaticallyEnqueue) {
      Task.effect(name: "Task 1") {
        Console.writeLine("Task 1")
        Task.effect(name: "Task 3") {
          Console.writeLine("Task 3")
        }
      }
      Task.effect(name: "Task 2") {
        Console.writeLine("Task 2")
        Task.effect(name: "Task 4") {
          Console.writeLine("Task 4")
        }
      }
    } test: { effect in
      try await effect.expect(Console.writeLine) { #expect($0 == "Task 1") }
      try await effect.expect(Console.writeLine) { #expect($0 == "Task 2") }
      try await effect.expect(Console.writeLine) { #expect($0 == "Task 3") }
      try await effect.expect(Console.writeLine) { #expect($0 == "Task 4") }
    }
  }

  @Test("a task created with the wrong name is a mismatch")
  func wrongTask() async throws {
    let failure = try await requireFailure(EffectTestFailure.self) {
      try await withTestHandler(taskHandling: .suspend) {
        program()
      } test: { effect in
        try await effect.expect(Console.print) { #expect($0 == "Start") }
        try await effect.expectTask("Task 2")
      }
    }
    #expect(failure.problem == .mismatch(expected: #"task "Task 2""#, performed: #"task "Task 1""#))
  }

  @Test("a script expecting an effect while the program waits on a held task fails at once")
  func waitingForTask() async throws {
    let failure = try await requireFailure(EffectTestFailure.self) {
      try await withTestHandler(taskHandling: .suspend) {
        await Task.effect(name: "worker") { Console.print("working") }.value
      } test: { effect in
        try await effect.expectTask("worker", action: .suspend)
        try await effect.expect(Console.print) { _ in }
      }
    }
    #expect(failure.problem == .waitingForTasks(expected: "Console.print", tasks: ["worker"]))
  }

  @Test("a held task the program awaits runs once the script enqueues it")
  func awaitedSuspendedTask() async throws {
    let value = try await withTestHandler(taskHandling: .suspend) {
      await Task.effect(name: "worker") { () -> String? in Console.readLine() }.value
    } test: { effect in
      let worker = try await effect.expectTask("worker", action: .suspend)
      worker.enqueue()
      try await effect.expect(Console.readLine, return: "done")
    }
    #expect(value == "done")
  }

  @Test("ignored, an awaited task runs when it is awaited, and a task nobody awaits never runs")
  func ignore() async throws {
    let printed = Recorder()
    try await with {
      EffectHandler(Console.print) { printed.append($0) }
    } perform: {
      try await withTestHandler(taskHandling: .ignore) {
        let awaited = Task.effect(name: "awaited") { Console.print("awaited") }
        Console.print("before")
        await awaited.value
        Console.print("after")
        Task.effect(name: "forgotten") { Console.print("forgotten") }
      } test: { effect in
        try await effect.expect(Console.print) { #expect($0 == "before") }
        try await effect.expect(Console.print) { #expect($0 == "awaited") }
        try await effect.expect(Console.print) { #expect($0 == "after") }
      }
    }
    // Had the forgotten task run, its print would have failed the test as performed after the
    // script ended, or reached the handler outside.
    #expect(printed.lines.isEmpty)
  }

  @Test("ignored, the awaited task runs even when an older task nobody awaits is held too")
  func ignoreRunsTheAwaitedTask() async throws {
    let printed = Recorder()
    try await with {
      EffectHandler(Console.print) { printed.append($0) }
    } perform: {
      try await withTestHandler(taskHandling: .ignore) {
        Task.effect(name: "forgotten") { Console.print("forgotten") }
        let first = Task.effect(name: "first") { Console.print("first") }
        let second = Task.effect(name: "second") { Console.print("second") }
        await second.value
        await first.value
        Console.print("done")
      } test: { effect in
        try await effect.expect(Console.print) { #expect($0 == "second") }
        try await effect.expect(Console.print) { #expect($0 == "first") }
        try await effect.expect(Console.print) { #expect($0 == "done") }
      }
    }
    #expect(printed.lines.isEmpty)
  }

  @Test("tasks under the script are real tasks: value, result and cancellation work")
  func realTasks() async throws {
    let outcome = try await withTestHandler(taskHandling: .suspend) {
      let value = Task.effect(name: "value") { 7 }
      let failing = Task.effect(name: "failing") { () throws -> Int in throw Offline() }
      let cancelled = Task.effect(name: "cancelled") { Task.isCancelled }
      cancelled.cancel()
      let failed = (try? await failing.result.get()) == nil
      return (await value.value, failed, await cancelled.value)
    } test: { effect in
      try await effect.expectTask("value")
      try await effect.expectTask("failing")
      try await effect.expectTask("cancelled")
    }
    #expect(outcome == (7, true, true))
  }
}
