// swift-tools-version:6.2
import PackageDescription

// A package that uses this library as its users do: a library under test and its tests, both
// built instrumented with the one setting the documentation gives (<doc:InstrumentedBuilds>). A
// package of its own, so that its instrumented build has its own scratch path (`.build` here);
// CI runs `swift test` here.
let instrumented: [SwiftSetting] = [.unsafeFlags(["-Xfrontend", "-sanitize=thread"])]

let package = Package(
  name: "InstrumentedClient",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "swift-effect-scheduler", path: "../..")],
  targets: [
    .target(name: "Accounts", swiftSettings: instrumented),
    .testTarget(
      name: "AccountsTests",
      dependencies: [
        "Accounts",
        .product(name: "Explore", package: "swift-effect-scheduler"),
        .product(name: "ExploreTesting", package: "swift-effect-scheduler"),
      ],
      swiftSettings: instrumented
    ),
  ],
  swiftLanguageModes: [.v6]
)
