import Effects
import Foundation

/// A lock a ``LockedChannel`` can be built on.
protocol ChannelLock: Sendable {
  func acquire()
  func release()
}

extension NSLock: ChannelLock {
  func acquire() { lock() }
  func release() { unlock() }
}

extension EffectLock: ChannelLock {
  func acquire() { lock() }
  func release() { unlock() }
}

/// A channel in the style of swift-async-algorithms' `AsyncChannel`: state behind a lock, and the
/// continuations of waiting senders and receivers stored in it and resumed outside the lock. A
/// send waits until a receiver takes its element. On `NSLock` the scheduler sees each critical
/// section as part of a step; on `EffectLock` each acquire is a scheduling point.
final class LockedChannel<Lock: ChannelLock>: @unchecked Sendable {
  private let lock: Lock
  private var receivers: [CheckedContinuation<Int?, Never>] = []
  private var senders: [(Int, CheckedContinuation<Void, Never>)] = []
  private var finished = false

  init(_ lock: Lock) { self.lock = lock }

  func send(_ element: Int) async {
    await withCheckedContinuation { (sent: CheckedContinuation<Void, Never>) in
      lock.acquire()
      if !receivers.isEmpty {
        let receiver = receivers.removeFirst()
        lock.release()
        receiver.resume(returning: element)
        sent.resume()
      } else {
        senders.append((element, sent))
        lock.release()
      }
    }
  }

  func next() async -> Int? {
    await withCheckedContinuation { (received: CheckedContinuation<Int?, Never>) in
      lock.acquire()
      if !senders.isEmpty {
        let (element, sender) = senders.removeFirst()
        lock.release()
        sender.resume()
        received.resume(returning: element)
      } else if finished {
        lock.release()
        received.resume(returning: nil)
      } else {
        receivers.append(received)
        lock.release()
      }
    }
  }

  func finish() {
    lock.acquire()
    finished = true
    let waiting = receivers
    receivers = []
    lock.release()
    for receiver in waiting { receiver.resume(returning: nil) }
  }
}
