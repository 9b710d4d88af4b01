#if canImport(Glibc)
  import Glibc
#endif
import Synchronization

/// Whether a thread of the process began during a run, read from `/proc/self/task`: the sign that
/// the run may have handed work to a thread (a `Thread` it started, a worker a dispatch queue added),
/// which can still hand something back.
///
/// A thread's start is counted in whole clock ticks since boot, so a thread that began in the tick
/// the run began in counts as begun during it, unless it began before the calling thread, the
/// run's driver: thread ids are handed out in increasing order. The threads that drive
/// schedulers do not count: they run other runs' programs, which hand this run nothing. Elsewhere
/// than on Linux, the census cannot be taken.
enum ThreadCensus {
  /// The ids of the threads running ``asDriverThread(_:)`` now.
  private static let driverThreads = Mutex<Set<Int>>([])

  /// Runs `body` on the calling thread, which drives schedulers meanwhile, and so does not count
  /// in other runs' censuses: explorations side by side each start a driver thread.
  static func asDriverThread(_ body: () -> Void) {
    #if os(Linux)
      let me = ownThreadID()
      if let me { driverThreads.withLock { _ = $0.insert(me) } }
      defer { if let me { driverThreads.withLock { _ = $0.remove(me) } } }
    #endif
    body()
  }

  /// Whether a thread other than the calling one, still alive, began in the window from
  /// `windowStart` to `windowEnd` before now (`windowStart` the longer); `true` when that cannot
  /// be told. The window is widened by a clock tick at each end, never narrowed.
  static func threadBegan(from windowStart: Duration, until windowEnd: Duration) -> Bool {
    #if os(Linux)
      let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
      var monotonic = timespec()
      var boottime = timespec()
      // The monotonic clock runs no faster than the boot-time one /proc may count from, and the
      // boot-time clock no slower: the window's start read through the first is never later than
      // it was, and its end read through the second never earlier. Doubt counts as a new thread.
      guard ticksPerSecond > 0, clock_gettime(CLOCK_MONOTONIC, &monotonic) == 0, clock_gettime(CLOCK_BOOTTIME, &boottime) == 0,
        let me = ownThreadID(), let myStart = startTicks(ofThread: me), let directory = opendir("/proc/self/task")
      else { return true }
      defer { closedir(directory) }
      let drivers = driverThreads.withLock { $0 }
      let first = ((seconds(monotonic) - windowStart.seconds) * ticksPerSecond).rounded(.down)
      let last = ((seconds(boottime) - windowEnd.seconds) * ticksPerSecond).rounded(.up)
      while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        guard let thread = Int(name), thread != me, !drivers.contains(thread) else { continue }
        // A thread that has ended since the directory was read can hand nothing back.
        guard let began = startTicks(ofThread: thread) else { continue }
        let beganBeforeMe = began < myStart || began == myStart && thread < me
        if Double(began) >= first, Double(began) <= last, !beganBeforeMe { return true }
      }
      return false
    #else
      return true
    #endif
  }

  #if os(Linux)
    private static func seconds(_ time: timespec) -> Double { Double(time.tv_sec) + Double(time.tv_nsec) / 1e9 }
  #endif

  #if os(Linux)
    /// The calling thread's id: from glibc's `gettid` (2.30 on), else from the
    /// `/proc/thread-self` link (`<pid>/task/<tid>`), which costs a path lookup in the kernel.
    static func ownThreadID() -> Int? {
      if let gettid { return Int(gettid()) }
      var buffer = [CChar](repeating: 0, count: 64)
      let length = readlink("/proc/thread-self", &buffer, buffer.count - 1)
      guard length > 0 else { return nil }
      let link = String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
      return link.split(separator: "/").last.flatMap { Int($0) }
    }

    private static let gettid: (@convention(c) () -> Int32)? = runtimeFunction("gettid")

    /// When `thread` began, in clock ticks since boot: the 22nd field of its `stat` file, counted
    /// after the name in parentheses, which may itself hold spaces.
    private static func startTicks(ofThread thread: Int) -> UInt64? {
      let descriptor = open("/proc/self/task/\(thread)/stat", O_RDONLY)
      guard descriptor >= 0 else { return nil }
      defer { close(descriptor) }
      var buffer = [UInt8](repeating: 0, count: 1024)
      let length = read(descriptor, &buffer, buffer.count)
      guard length > 0, let nameEnd = buffer[..<length].lastIndex(of: UInt8(ascii: ")")) else { return nil }
      let fields = buffer[(nameEnd + 1)..<length].split(separator: UInt8(ascii: " "))
      // After the name come the state (field 3) and the rest: the start time is field 22.
      guard fields.count > 19 else { return nil }
      return UInt64(String(decoding: fields[19], as: UTF8.self))
    }
  #endif
}
