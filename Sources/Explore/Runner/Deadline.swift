import Dispatch

/// A moment on the monotonic clock after which a search starts no more runs.
struct Deadline: Sendable {
  private let uptimeNanoseconds: UInt64

  /// The moment `nanoseconds` after `start`, in nanoseconds of `DispatchTime.uptimeNanoseconds`.
  init(nanoseconds: UInt64, after start: UInt64) {
    let (sum, overflow) = start.addingReportingOverflow(nanoseconds)
    uptimeNanoseconds = overflow ? .max : sum
  }

  /// Whether the moment has come.
  var hasPassed: Bool { DispatchTime.now().uptimeNanoseconds >= uptimeNanoseconds }
}
