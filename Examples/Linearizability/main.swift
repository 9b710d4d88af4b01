// Is an image cache correct when any mix of its calls runs at once? `checkLinearizability`
// generates concurrent scenarios of its operations, explores each one's interleavings, and checks
// every outcome against the sequential orders of the same calls. The first cache checks, awaits
// the download and then stores it: two callers of the same URL can both miss and download twice,
// which no sequential order explains. The second stores the download's task before awaiting it.
import Explore

/// A server counting each URL's downloads: the answer is the download's number.
actor Server {
  private var downloads: [String: Int] = [:]

  func download(_ url: String) -> Int {
    downloads[url, default: 0] += 1
    return downloads[url]!
  }
}

/// Caches each URL's image, as its download's number.
actor ImageCache {
  private let server = Server()
  private let storesTheTaskFirst: Bool
  private var images: [String: Int] = [:]
  private var downloads: [String: Task<Int, Never>] = [:]

  init(storesTheTaskFirst: Bool) { self.storesTheTaskFirst = storesTheTaskFirst }

  func image(_ url: String) async -> Int {
    if storesTheTaskFirst {
      if let download = downloads[url] { return await download.value }
      let download = Task { await server.download(url) }
      downloads[url] = download
      return await download.value
    }
    if let image = images[url] { return image }
    let image = await server.download(url)
    images[url] = image
    return image
  }

  var count: Int { storesTheTaskFirst ? downloads.count : images.count }
}

func check(storesTheTaskFirst: Bool) async throws(LinearizabilityFailure) -> LinearizabilitySummary {
  try await checkLinearizability(of: { ImageCache(storesTheTaskFirst: storesTheTaskFirst) }) { ops in
    ops.add("image(url)", arguments: ["a", "b"]) { cache, url in await cache.image(url) }
    ops.add("count") { cache in await cache.count }
  }
}

print("Checking the cache that awaits the download before storing it…\n")
do {
  let summary = try await check(storesTheTaskFirst: false)
  print("no violation?! \(summary)")
} catch {
  print(error)
}

print("\nChecking the cache that stores the download's task first…")
do {
  print("linearizable in every scenario explored: \(try await check(storesTheTaskFirst: true))")
} catch {
  print(error)
}
