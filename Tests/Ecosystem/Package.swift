// swift-tools-version:6.2
import PackageDescription

// Recipes that run ecosystem libraries, unmodified, under `explore`: a package of its own, so that
// the main package keeps no dependencies. `swift build --build-tests && swift test` here.
let package = Package(
  name: "EcosystemRecipes",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "swift-effect-scheduler", path: "../.."),
    .package(url: "https://github.com/apple/swift-async-algorithms", from: "1.1.4"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    // Already a dependency of swift-service-lifecycle; named here for `import Logging`.
    .package(url: "https://github.com/apple/swift-log", from: "1.14.0"),
  ],
  targets: [
    .testTarget(
      name: "RecipeTests",
      dependencies: [
        .product(name: "Explore", package: "swift-effect-scheduler"),
        .product(name: "ExploreTesting", package: "swift-effect-scheduler"),
        .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
      ]
    )
  ],
  swiftLanguageModes: [.v6]
)
