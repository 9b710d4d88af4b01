import Effects
import Testing

/// The reference's view model: it turns a stream of random numbers into a message.
@MainActor
final class RandomNumberViewModel {
  private var previousNumber: Int?
  var message = ""

  func getRandomNumbers() async {
    do {
      for try await number in Random.numbers(0...100) {
        if previousNumber == number {
          message = "It's the same number again, boooring!!"
        } else if number.isMultiple(of: 2) {
          message = "\(number) is a good number"
        } else {
          message = "\(number) is a bad number"
        }
        previousNumber = number
      }
      message = "Good bye!"
    } catch {
      message = "Bad error"
    }
  }
}

@MainActor
@Suite("withTestHandler: main-actor programs")
struct MainActorTests {
  @Test("the script checks the view model's state between two elements")
  func viewModel() async throws {
    let viewModel = RandomNumberViewModel()
    try await withTestHandler {
      await viewModel.getRandomNumbers()
    } test: { effect in
      try await effect.expect(Random.numbers) { range in
        #expect(range == 0...100)
        return 1
      }
      #expect(viewModel.message == "1 is a bad number")
      try await effect.expect(Random.numbers) { _ in 2 }
      #expect(viewModel.message == "2 is a good number")
      try await effect.expect(Random.numbers) { _ in 3 }
      #expect(viewModel.message == "3 is a bad number")
      try await effect.expect(Random.numbers) { _ in 3 }
      #expect(viewModel.message == "It's the same number again, boooring!!")
      try await effect.expect(Random.numbers) { _ in nil }
      #expect(viewModel.message == "Good bye!")
    }
  }

  @Test("an error thrown for an element reaches the view model")
  func viewModelError() async throws {
    let viewModel = RandomNumberViewModel()
    try await withTestHandler {
      await viewModel.getRandomNumbers()
    } test: { effect in
      try await effect.expect(Random.numbers) { _ in 4 }
      #expect(viewModel.message == "4 is a good number")
      try await effect.expect(Random.numbers) { _ in throw Offline() }
      #expect(viewModel.message == "Bad error")
    }
  }
}
