/// What is under the scheduler's control in this process: each ``RuntimeMechanism`` and whether
/// its probe verified it.
///
/// The mechanisms read or write the concurrency runtime's and the C library's private memory at
/// fixed offsets. Each is probed the first time any is used, once a process, on objects whose
/// contents are known (a task suspended on a continuation, a mutex this thread holds); one whose
/// probe reads anything else, or that the platform lacks, is off, and the scheduler then does
/// what it does where the mechanism does not exist. An exploration whose claim depends on one
/// that is off says so.
///
/// ```swift
/// print(RuntimeCapabilities.current)
/// // executor adoption (plain tasks hop through the scheduler)   verified
/// // …
/// ```
public struct RuntimeCapabilities: Hashable, Sendable, CustomStringConvertible {
  /// Each mechanism's status, in ``RuntimeMechanism/allCases`` order.
  private let statuses: [MechanismStatus]
  /// One bit a mechanism that is on, by its place in ``RuntimeMechanism/allCases``: the
  /// scheduler asks on hot paths.
  private let onBits: UInt32

  /// Capabilities with these statuses; a mechanism not given is unavailable.
  public init(_ statuses: [RuntimeMechanism: MechanismStatus]) {
    self.statuses = RuntimeMechanism.allCases.map { statuses[$0] ?? .unavailable("not probed") }
    var bits: UInt32 = 0
    for (index, status) in self.statuses.enumerated() where status.isOn { bits |= 1 << UInt32(index) }
    onBits = bits
  }

  /// What this process has under control, probed the first time it is read.
  public static let current = RuntimeCapabilities(probing: ())

  /// The status of `mechanism`.
  public subscript(_ mechanism: RuntimeMechanism) -> MechanismStatus {
    statuses[Self.index(of: mechanism)]
  }

  /// Whether `mechanism` is on: its probe verified it.
  public func isOn(_ mechanism: RuntimeMechanism) -> Bool {
    onBits & (1 << UInt32(Self.index(of: mechanism))) != 0
  }

  /// Whether runs can see the locks their steps take (an `NSLock`, a `pthread_mutex_t`, a
  /// `pthread_rwlock_t`), note them and pause at them: the slots are redirected, a task's status
  /// lock is told from the program's and a lock's holder is read. Where they cannot, every claim
  /// assumes that such critical sections, if any, ran whole.
  public var seesLocks: Bool { isOn(.importedFunctionSlots) && isOn(.taskStatusLocks) && isOn(.lockHolders) }

  /// The mechanisms that are off, in declaration order.
  public var off: [RuntimeMechanism] { RuntimeMechanism.allCases.filter { !isOn($0) } }

  /// These capabilities with `mechanisms` off as well, as if their probes had failed.
  package func leaving(off mechanisms: Set<RuntimeMechanism>) -> RuntimeCapabilities {
    guard !mechanisms.isEmpty else { return self }
    var statuses: [RuntimeMechanism: MechanismStatus] = [:]
    for mechanism in RuntimeMechanism.allCases {
      statuses[mechanism] = mechanisms.contains(mechanism) && isOn(mechanism) ? .failedProbe("left off by the configuration") : self[mechanism]
    }
    return RuntimeCapabilities(statuses)
  }

  /// A table: each mechanism, its status, and what is lost where it is off.
  public var description: String {
    let width = RuntimeMechanism.allCases.map(\.description.count).max() ?? 0
    return RuntimeMechanism.allCases.map { mechanism in
      let name = mechanism.description + String(repeating: " ", count: width - mechanism.description.count)
      let status = self[mechanism]
      return "\(name)  \(status)" + (status.isOn ? "" : ": \(mechanism.withoutIt)")
    }.joined(separator: "\n")
  }

  private static func index(of mechanism: RuntimeMechanism) -> Int {
    // Declaration order; `allCases` is small and fixed, and this runs on hot paths.
    switch mechanism {
    case .globalExecutorHooks: 0
    case .taskWaits: 1
    case .executorAdoption: 2
    case .actorQueues: 3
    case .actorJobs: 4
    case .taskStatusLocks: 5
    case .lockHolders: 6
    case .importedFunctionSlots: 7
    case .taskCreationSites: 8
    }
  }
}
