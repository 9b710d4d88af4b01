import Effects

private actor Settings {
  private(set) var endpoint: String?
  func load() async {
    await Task.yield()  // reading the file
    endpoint = "https://example.com"
  }
}

extension ClassicBug {
  /// A reader that runs before the loader it depends on has initialized the settings.
  public static let orderViolation = ClassicBug(
    name: "order violation: a reader runs before initialization",
    buggy: { spawn in
      let settings = Settings()
      spawn(name: "loader") { await settings.load() }
      let reader = spawn(name: "reader") { await settings.endpoint }
      try check(await reader.value != nil, "the reader saw no endpoint")
    },
    fixed: { spawn in
      let settings = Settings()
      let loader = spawn(name: "loader") { await settings.load() }
      let reader = spawn(name: "reader") {
        await loader.value
        return await settings.endpoint
      }
      try check(await reader.value != nil, "the reader saw no endpoint")
    },
    randomBudget: 20, pctBudget: 20)
}
