import Effects

/// An image cache that downloads on a miss. The buggy lookup checks, suspends to download, then
/// stores: two lookups of the same key both miss and download twice.
private actor ImageCache {
  private var images: [String: Int] = [:]
  private var inFlight: [String: Task<Int, Never>] = [:]
  private(set) var downloads = 0

  func imageCheckingThenActing(_ key: String) async -> Int {
    if let image = images[key] { return image }
    let image = await download(key)
    images[key] = image
    return image
  }

  func imageSharingDownloads(_ key: String) async -> Int {
    if let image = images[key] { return image }
    if let download = inFlight[key] { return await download.value }
    let download = Task.effect(name: "download \(key)") { await self.download(key) }
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

extension ClassicBug {
  static let checkThenAct = ClassicBug(
    name: "check-then-act across actor reentrancy",
    buggy: {
      let cache = ImageCache()
      let first = Task.effect(name: "first") { await cache.imageCheckingThenActing("cat") }
      let second = Task.effect(name: "second") { await cache.imageCheckingThenActing("cat") }
      _ = await (first.value, second.value)
      let downloads = await cache.downloads
      try check(downloads == 1, "downloaded \(downloads) times")
    },
    fixed: {
      let cache = ImageCache()
      let first = Task.effect(name: "first") { await cache.imageSharingDownloads("cat") }
      let second = Task.effect(name: "second") { await cache.imageSharingDownloads("cat") }
      _ = await (first.value, second.value)
      let downloads = await cache.downloads
      try check(downloads == 1, "downloaded \(downloads) times")
    },
    randomBudget: 20, pctBudget: 20)
}
