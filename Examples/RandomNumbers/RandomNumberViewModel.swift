import Effects

/// The server: a number in a range, after a while.
enum RandomNumber {
  static let fetch = ThrowingAsyncEffect<ClosedRange<Int>, Int>("RandomNumber.fetch") { range in
    try await Task.sleep(for: .milliseconds(500))
    return Int.random(in: range)
  }
}

/// Shows a random number in the range the user last picked, fetched in a plain `Task {}` so the
/// view never waits. The buggy model shows whichever answer arrives last; the fixed one cancels
/// the request in flight, and a cancelled request shows nothing.
@MainActor
final class RandomNumberViewModel {
  private(set) var message = ""
  private(set) var number: Int?
  private(set) var range: ClosedRange<Int>?
  private var previousNumber: Int?
  private var request: Task<Void, Never>?
  private let cancelsStaleRequests: Bool

  init(cancelsStaleRequests: Bool) { self.cancelsStaleRequests = cancelsStaleRequests }

  @discardableResult
  func getRandomNumber(in range: ClosedRange<Int>) -> Task<Void, Never> {
    self.range = range
    if cancelsStaleRequests { request?.cancel() }
    let request = Task {
      do {
        let number = try await RandomNumber.fetch(range)
        // Back on the main actor, so no cancellation can slip in between the check and `show`.
        if cancelsStaleRequests, Task.isCancelled { return }
        show(number)
      } catch {
        if cancelsStaleRequests, Task.isCancelled { return }
        message = "Bad error"
      }
    }
    self.request = request
    return request
  }

  private func show(_ number: Int) {
    if previousNumber == number {
      message = "It's the same number again, boooring!!"
    } else {
      message = "\(number) is a \(number.isMultiple(of: 2) ? "good" : "bad") number"
    }
    previousNumber = number
    self.number = number
  }
}
