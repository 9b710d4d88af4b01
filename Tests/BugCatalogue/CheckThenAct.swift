import Effects

/// An image cache that downloads on a miss. The buggy lookup checks, suspends to download, then
/// stores: two lookups of the same key both miss and download twice.
private actor ImageCache {
  private var images: [String: Int] = [:]
  private var inFlight: [String: Task<Int, Never>] = [:]
  private(set) var downloads = 0
  private let spawn: Spawn

  init(spawn: Spawn) { self.spawn = spawn }

  func imageCheckingThenActing(_ key: String) async -> Int {
    if let image = images[key] { return image }
    let image = await download(key)
    images[key] = image
    return image
  }

  func imageSharingDownloads(_ key: String) async -> Int {
    if let image = images[key] { return image }
    if let download = inFlight[key] { return await download.value }
    let download = spawn(name: "download \(key)") { await self.download(key) }
    inFlight[key] = download
    let image = await download.value
    images[key] = image
    inFlight[key] = nil
    return image
  }

  private func download(_ key: String) async -> Int {
    downloads += 1
    await Task.yield()
    return key.count
  }
}

/// Two lookups of the same key, from tasks made by `spawn`; `lookUp` is how each one reaches the
/// cache.
private func twoLookups(_ spawn: Spawn, _ lookUp: @escaping @Sendable (ImageCache, String) async -> Int) async throws {
  let cache = ImageCache(spawn: spawn)
  let first = spawn(name: "first") { await lookUp(cache, "cat") }
  let second = spawn(name: "second") { await lookUp(cache, "cat") }
  _ = await (first.value, second.value)
  let downloads = await cache.downloads
  try check(downloads == 1, "downloaded \(downloads) times")
}

extension ClassicBug {
  /// A cache that checks, awaits, then acts on what it checked: two lookups both miss and both load.
  public static let checkThenAct = ClassicBug(
    name: "check-then-act across actor reentrancy",
    buggy: { spawn in try await twoLookups(spawn) { await $0.imageCheckingThenActing($1) } },
    fixed: { spawn in try await twoLookups(spawn) { await $0.imageSharingDownloads($1) } },
    randomBudget: 20, pctBudget: 20)
}
