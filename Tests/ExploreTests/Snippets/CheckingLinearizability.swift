// Code block 1 of Sources/Explore/Explore.docc/CheckingLinearizability.md, as the article prints it: `SnippetTests` checks, word for word, that
// every Swift block of the articles and the README is the text between the markers of a file here.

// snippet begins
import Explore

actor ImageCache {
  private var images: [String: String] = [:]
  var count: Int { images.count }

  func image(_ url: String) async -> String {
    if let image = images[url] { return image }
    await Task.yield()  // the download
    images[url] = url.uppercased()
    return images[url]!
  }
}

func checkImageCache() async throws {
  try await checkLinearizability(of: { ImageCache() }) { ops in
    ops.add("image(url)", arguments: ["a", "b"]) { cache, url in await cache.image(url) }
    ops.add("count") { cache in await cache.count }
  }
}
// snippet ends
