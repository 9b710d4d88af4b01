/// What one call of an operation returned, or the error it threw: a thrown error counts as a
/// result, equal to another of the same type and description.
public struct OperationResult: Equatable, Sendable, CustomStringConvertible {
  private let value: any Sendable
  private let isEqual: @Sendable (any Sendable) -> Bool
  /// The value or error, as the report prints it.
  public let description: String

  /// The result `value`.
  public init<Value: Equatable & Sendable>(_ value: Value) {
    self.value = value
    isEqual = { ($0 as? Value) == value }
    description = Value.self == Void.self ? "()" : String(reflecting: value)
  }

  /// The result of a call that returned nothing.
  public static let void = OperationResult(VoidResult())

  /// The result of a call that threw `error`.
  public init(throwing error: any Error) {
    let text = "throws \(String(reflecting: error))"
    value = text
    isEqual = { ($0 as? String) == text }
    description = text
  }

  /// Whether two results are equal values of one type, or errors of one type and description.
  public static func == (lhs: OperationResult, rhs: OperationResult) -> Bool {
    lhs.isEqual(rhs.value)
  }
}

/// `Void`, which is not `Equatable`, as a result.
private struct VoidResult: Equatable, Sendable, CustomStringConvertible {
  var description: String { "()" }
}
