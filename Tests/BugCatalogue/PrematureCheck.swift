import Effects

private actor DraftStore {
  private(set) var saved: [String] = []
  func save(_ draft: String) async {
    await Task.yield()  // writing to disk
    saved.append(draft)
  }
}

extension ClassicBug {
  /// A check made before the work it checks has finished.
  public static let prematureCheck = ClassicBug(
    name: "premature check: a missing await",
    buggy: { spawn in
      let store = DraftStore()
      spawn(name: "save") { await store.save("hello") }
      await Task.yield()
      try check(await store.saved == ["hello"], "the draft was not saved yet")
    },
    fixed: { spawn in
      let store = DraftStore()
      let save = spawn(name: "save") { await store.save("hello") }
      await save.value
      try check(await store.saved == ["hello"], "the draft was not saved yet")
    },
    randomBudget: 20, pctBudget: 20)
}
