/// Plain memory work with no concurrency and no scheduler: arrays, a dictionary, objects and a
/// sort. The Benchmarks time it built plain and built instrumented (the catalogue's twin), for
/// what instrumentation costs code outside any run.
public func memoryWork(size: Int) -> Int {
  final class Node {
    var value: Int
    var next: Node?
    init(value: Int, next: Node?) {
      self.value = value
      self.next = next
    }
  }
  var numbers: [Int] = []
  var counts: [Int: Int] = [:]
  var list: Node?
  for index in 0..<size {
    numbers.append(index &* 2_654_435_761 % 10_007)
    counts[index % 257, default: 0] &+= index
    if index % 8 == 0 { list = Node(value: index, next: list) }
  }
  numbers.sort()
  var sum = 0
  for number in numbers { sum &+= number }
  while let node = list {
    sum &+= node.value
    list = node.next
  }
  return sum &+ counts.count
}
