// Time-based operators written the way swift-async-algorithms writes its own, on the default
// clock: they read `clock.now`, sleep until deadlines computed from it, and compare the time they
// wake at with the deadline. None of them knows about the scheduler.

/// The elements of `base` that come at least `interval` after the last one let through, as
/// `throttle(for:clock:latest: false)` gives them.
func throttled(_ base: AsyncStream<Int>, for interval: Duration, clock: ContinuousClock = ContinuousClock()) async -> [Int] {
  var last: ContinuousClock.Instant?
  var passed: [Int] = []
  for await element in base {
    let now = clock.now
    if let last, last.duration(to: now) < interval { continue }
    last = now
    passed.append(element)
  }
  return passed
}

/// A timer that ticks every `interval`, returning the instant of each tick, like
/// `AsyncTimerSequence`: it keeps its ticks on a grid, and starts the grid again from now when it
/// woke too late for the next tick.
struct TimerTicks: AsyncSequence {
  let interval: Duration
  var clock = ContinuousClock()

  struct AsyncIterator: AsyncIteratorProtocol {
    let interval: Duration
    let clock: ContinuousClock
    var next: ContinuousClock.Instant?

    mutating func next() async -> ContinuousClock.Instant? {
      let deadline = next ?? clock.now.advanced(by: interval)
      do { try await clock.sleep(until: deadline) } catch { return nil }
      let now = clock.now
      next = deadline.advanced(by: interval) < now ? now.advanced(by: interval) : deadline.advanced(by: interval)
      return now
    }
  }

  func makeAsyncIterator() -> AsyncIterator { AsyncIterator(interval: interval, clock: clock, next: nil) }
}

/// The latest element of `base` once `interval` has passed without another, as `debounce(for:)`
/// gives them: one task reads the upstream and moves the deadline; another sleeps until the
/// deadline and, woken, lets the element through only if the deadline has not moved meanwhile.
/// An element still pending when the upstream ends goes through at its deadline.
func debounced(_ base: AsyncStream<Int>, for interval: Duration, clock: ContinuousClock = ContinuousClock()) -> AsyncStream<Int> {
  AsyncStream { output in
    let state = DebounceState()
    let work = Task {
      await withTaskGroup(of: Void.self) { group in
        group.addTask {
          for await element in base { await state.receive(element, due: clock.now.advanced(by: interval)) }
          await state.finishUpstream()
        }
        group.addTask {
          while let deadline = await state.nextDeadline() {
            try? await clock.sleep(until: deadline)
            if let element = await state.take(dueBy: clock.now) { output.yield(element) }
          }
          output.finish()
        }
      }
    }
    output.onTermination = { _ in work.cancel() }
  }
}

/// The element waiting for its deadline, and the timer task waiting for an element.
private actor DebounceState {
  private var pending: (element: Int, deadline: ContinuousClock.Instant)?
  private var upstreamFinished = false
  private var timer: CheckedContinuation<ContinuousClock.Instant?, Never>?

  func receive(_ element: Int, due deadline: ContinuousClock.Instant) {
    pending = (element, deadline)
    timer?.resume(returning: deadline)
    timer = nil
  }

  func finishUpstream() {
    upstreamFinished = true
    if pending == nil {
      timer?.resume(returning: nil)
      timer = nil
    }
  }

  /// The deadline to sleep until, waiting for an element if none is pending; `nil` once the
  /// upstream has ended and nothing is pending.
  func nextDeadline() async -> ContinuousClock.Instant? {
    if let pending { return pending.deadline }
    if upstreamFinished { return nil }
    return await withCheckedContinuation { timer = $0 }
  }

  /// The pending element if its deadline has passed by `now`.
  func take(dueBy now: ContinuousClock.Instant) -> Int? {
    guard let pending, pending.deadline <= now else { return nil }
    self.pending = nil
    return pending.element
  }
}

/// A stream that yields each element at its offset from the moment it is made, on the default
/// clock, and finishes at `end`.
func timedStream(_ elements: [(Int, Duration)], finishingAt end: Duration) -> AsyncStream<Int> {
  let (stream, continuation) = AsyncStream<Int>.makeStream()
  Task {
    let start = ContinuousClock.now
    for (element, offset) in elements {
      try? await Task.sleep(until: start + offset, clock: .continuous)
      continuation.yield(element)
    }
    try? await Task.sleep(until: start + end, clock: .continuous)
    continuation.finish()
  }
  return stream
}
