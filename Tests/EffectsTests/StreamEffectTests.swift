import Effects
import Testing

enum Random {
  static let numbers = StreamEffect<ClosedRange<Int>, Int>("Random.numbers") { range in
    AsyncThrowingStream { Int.random(in: range) }
  }
}

private func collect(_ stream: AsyncThrowingStream<Int, any Error>) async throws -> [Int] {
  var numbers: [Int] = []
  for try await number in stream { numbers.append(number) }
  return numbers
}

private func stream(of numbers: [Int]) -> AsyncThrowingStream<Int, any Error> {
  AsyncThrowingStream { continuation in
    for number in numbers { continuation.yield(number) }
    continuation.finish()
  }
}

@Suite("Stream effects")
struct StreamEffectTests {
  @Test("with no handler the default implementation's stream is used")
  func production() async throws {
    var numbers: [Int] = []
    for try await number in Random.numbers(1...3) {
      numbers.append(number)
      if numbers.count == 5 { break }
    }
    #expect(numbers.count == 5)
    #expect(numbers.allSatisfy { (1...3).contains($0) })
  }

  @Test("a handler replaces the whole stream")
  func handler() async throws {
    let numbers = try await with {
      EffectHandler(Random.numbers) { range in stream(of: [range.lowerBound, range.upperBound]) }
    } perform: {
      try await collect(Random.numbers(4...9))
    }
    #expect(numbers == [4, 9])
  }

  @Test("under a script each element is an effect: a value, nil to finish")
  func elements() async throws {
    let numbers = try await withTestHandler {
      try await collect(Random.numbers(0...100))
    } test: { effect in
      try await effect.expect(Random.numbers) { range in
        #expect(range == 0...100)
        return 1
      }
      try await effect.expect(Random.numbers, return: 2)
      try await effect.expect(Random.numbers) { _ in nil }
    }
    #expect(numbers == [1, 2])
  }

  @Test("under a script an error thrown for an element fails the stream")
  func failure() async throws {
    let outcome = try await withTestHandler { () -> String in
      do {
        return "finished with \(try await collect(Random.numbers(0...1)))"
      } catch {
        return "failed with \(error)"
      }
    } test: { effect in
      try await effect.expect(Random.numbers, return: 1)
      try await effect.expect(Random.numbers) { _ in throw Offline() }
    }
    #expect(outcome == "failed with Offline()")
  }

  @Test("a yielded element comes from the stream of the handler outside")
  func yieldElement() async throws {
    let numbers = try await with {
      EffectHandler(Random.numbers) { _ in stream(of: [40, 41]) }
    } perform: {
      try await withTestHandler {
        try await collect(Random.numbers(0...100))
      } test: { effect in
        try await effect.expect(Random.numbers, return: 1)
        try await effect.yield()
        try await effect.yield()
        try await effect.expect(Random.numbers, return: nil)
      }
    }
    #expect(numbers == [1, 40, 41])
  }
}
