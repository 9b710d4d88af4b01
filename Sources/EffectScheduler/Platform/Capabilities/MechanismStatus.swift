/// Whether a ``RuntimeMechanism`` is on in this process, and if not, why.
///
/// ```swift
/// switch RuntimeCapabilities.current[.taskWaits] {
/// case .verified: break
/// case .failedProbe(let reason), .unavailable(let reason): print("off:", reason)
/// }
/// ```
public enum MechanismStatus: Hashable, Sendable, CustomStringConvertible {
  /// Its probe read what it expected from objects whose contents are known: it is on.
  case verified
  /// Its probe read something else, as this reason says, or a mechanism it needs is off: it is off.
  case failedProbe(String)
  /// It does not exist on this platform, as this reason says: it is off.
  case unavailable(String)

  /// Whether the mechanism is on.
  public var isOn: Bool { self == .verified }

  /// `verified`, `off: probe failed (<reason>)` or `off: unavailable (<reason>)`.
  public var description: String {
    switch self {
    case .verified: "verified"
    case .failedProbe(let reason): "off: probe failed (\(reason))"
    case .unavailable(let reason): "off: unavailable (\(reason))"
    }
  }
}
