// swift-tools-version:6.2
import PackageDescription

// Swift 6.2 for the APIs it names: `Task(name:)` and `Task.name`, which older compilers lack.
// The platforms are those of task executor preferences (`Task(executorPreference:)`) and of
// `Synchronization`'s `Mutex` and `Atomic`; later APIs (`Task.name`, the default executor's
// redirect) are used only where `#available` finds them.

// The library runs thousands of schedules a test, and unoptimized it runs them five to seven
// times slower: its own modules are optimized in debug builds too, the code under test is not.
let optimizedInDebugBuilds: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
  name: "swift-effect-scheduler",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "EffectScheduler", targets: ["EffectScheduler"]),
    .library(name: "Effects", targets: ["Effects"]),
    .library(name: "Explore", targets: ["Explore"]),
    .library(name: "ExploreTesting", targets: ["ExploreTesting"]),
  ],
  targets: [
    // The entry points of code built with `-Xfrontend -sanitize=thread`: see Instrumentation.swift.
    .target(name: "InstrumentationEntryPoints", cSettings: [.unsafeFlags(["-O2"], .when(configuration: .debug))]),
    .target(name: "EffectScheduler", dependencies: ["InstrumentationEntryPoints"], swiftSettings: optimizedInDebugBuilds),
    .target(name: "Effects", dependencies: ["EffectScheduler"], swiftSettings: optimizedInDebugBuilds),
    .target(name: "Explore", dependencies: ["EffectScheduler"], swiftSettings: optimizedInDebugBuilds),
    // Test-only: the only module that imports Testing. The others find it at run time.
    .target(name: "ExploreTesting", dependencies: ["EffectScheduler", "Effects", "Explore"]),
    .executableTarget(
      name: "Interleavings",
      dependencies: ["EffectScheduler", "Effects"],
      path: "Examples/Interleavings"
    ),
    .executableTarget(name: "Echo", dependencies: ["Effects"], path: "Examples/Echo"),
    .executableTarget(name: "BankTransfer", dependencies: ["Effects", "Explore"], path: "Examples/BankTransfer"),
    .executableTarget(name: "DiningPhilosophers", dependencies: ["Effects", "Explore"], path: "Examples/DiningPhilosophers"),
    .executableTarget(name: "RandomNumbers", dependencies: ["Effects", "Explore"], path: "Examples/RandomNumbers"),
    .executableTarget(name: "Locks", dependencies: ["Effects", "Explore"], path: "Examples/Locks"),
    .executableTarget(name: "Linearizability", dependencies: ["Explore"], path: "Examples/Linearizability"),
    .executableTarget(name: "Debounce", dependencies: ["EffectScheduler", "Effects", "Explore"], path: "Examples/Debounce"),
    // Test-only: the classic bugs, shared by the tests and the Benchmarks' figure table.
    .target(name: "BugCatalogue", dependencies: ["Effects", "Explore"], path: "Tests/BugCatalogue"),
    // The same catalogue built instrumented (its files are links to BugCatalogue's), for the
    // instrumented tests and the Benchmarks' figure of what instrumentation costs a schedule.
    .target(
      name: "InstrumentedBugCatalogue",
      dependencies: ["Effects", "Explore"],
      path: "Tests/InstrumentedBugCatalogue",
      swiftSettings: [.unsafeFlags(["-Xfrontend", "-sanitize=thread"])]
    ),
    .executableTarget(
      name: "Benchmarks",
      dependencies: ["EffectScheduler", "Effects", "Explore", "BugCatalogue", "InstrumentedBugCatalogue"],
      path: "Benchmarks"
    ),
    .testTarget(name: "EffectSchedulerTests", dependencies: ["EffectScheduler", "Effects", "BugCatalogue"]),
    .testTarget(name: "EffectsTests", dependencies: ["Effects", "EffectScheduler", "ExploreTesting", "Echo"]),
    // Built instrumented: every atomic operation and memory access of its code is visible to a run.
    .testTarget(
      name: "InstrumentedTests",
      dependencies: ["Explore", "EffectScheduler", "ExploreTesting", "InstrumentedBugCatalogue"],
      swiftSettings: [.unsafeFlags(["-Xfrontend", "-sanitize=thread"])]
    ),
    .testTarget(name: "ExploreTests", dependencies: ["Explore", "EffectScheduler", "Effects", "ExploreTesting", "RandomNumbers", "Debounce", "BugCatalogue"]),
  ],
  swiftLanguageModes: [.v6]
)
