/// The operations a linearizability check calls concurrently, each with the arguments it may take.
///
/// `Subject` is the type under test; `Model` the sequential specification that says which results
/// are correct, by default `Subject` itself run on one task.
///
/// ```swift
/// try await checkLinearizability(of: { ImageCache() }) { ops in
///   ops.add("image(url)", arguments: ["a", "b"]) { cache, url in await cache.image(url) }
///   ops.add("count") { cache in await cache.count }
/// }
/// ```
public final class LinearizabilityOperations<Subject, Model> {
  /// One operation: its name, the descriptions of its arguments, and how to call it on the
  /// subject and on the model with the argument at an index.
  struct Operation {
    let name: String
    let arguments: [String]
    let onSubject: @Sendable (Subject, Int) async -> OperationResult
    let onModel: @Sendable (Model, Int) async -> OperationResult

    /// `image("a")`: the name with the argument in place of what its parentheses hold.
    func call(argument: Int) -> String {
      guard arguments.indices.contains(argument) else { return name }
      let shown = arguments[argument]
      guard let open = name.firstIndex(of: "("), name.hasSuffix(")") else { return "\(name)(\(shown))" }
      return name[..<open] + "(\(shown))"
    }
  }

  private(set) var operations: [Operation] = []

  init() {}

  /// Adds an operation whose calls take one of `arguments`, with its implementation on the
  /// subject and on the model.
  public func add<Argument: Sendable, Result: Equatable & Sendable>(
    _ name: String, arguments: [Argument],
    _ body: @escaping @Sendable (Subject, Argument) async throws -> Result,
    model: @escaping @Sendable (Model, Argument) async throws -> Result
  ) {
    append(name, arguments, { OperationResult(try await body($0, arguments[$1])) }, { OperationResult(try await model($0, arguments[$1])) })
  }

  /// Adds an operation without arguments, with its implementation on the subject and on the model.
  public func add<Result: Equatable & Sendable>(
    _ name: String, _ body: @escaping @Sendable (Subject) async throws -> Result,
    model: @escaping @Sendable (Model) async throws -> Result
  ) {
    append(name, [NoArgument](), { subject, _ in OperationResult(try await body(subject)) }, { model_, _ in OperationResult(try await model(model_)) })
  }

  /// Adds an operation that returns nothing and takes one of `arguments`, on the subject and on
  /// the model.
  public func add<Argument: Sendable>(
    _ name: String, arguments: [Argument],
    _ body: @escaping @Sendable (Subject, Argument) async throws -> Void,
    model: @escaping @Sendable (Model, Argument) async throws -> Void
  ) {
    append(
      name, arguments,
      { subject, index in
        try await body(subject, arguments[index])
        return .void
      },
      { model_, index in
        try await model(model_, arguments[index])
        return .void
      })
  }

  /// Adds an operation that returns nothing and takes no argument, on the subject and on the model.
  public func add(
    _ name: String, _ body: @escaping @Sendable (Subject) async throws -> Void,
    model: @escaping @Sendable (Model) async throws -> Void
  ) {
    append(
      name, [NoArgument](),
      { subject, _ in
        try await body(subject)
        return .void
      },
      { model_, _ in
        try await model(model_)
        return .void
      })
  }

  private func append<Argument>(
    _ name: String, _ arguments: [Argument],
    _ onSubject: @escaping @Sendable (Subject, Int) async throws -> OperationResult,
    _ onModel: @escaping @Sendable (Model, Int) async throws -> OperationResult
  ) {
    let shown = Argument.self == NoArgument.self ? [] : arguments.map { String(reflecting: $0) }
    operations.append(
      Operation(
        name: name, arguments: shown,
        onSubject: { subject, index in await Self.capture { try await onSubject(subject, index) } },
        onModel: { model, index in await Self.capture { try await onModel(model, index) } }))
  }

  /// The result of a call, or the error it threw as one.
  private static func capture(_ call: () async throws -> OperationResult) async -> OperationResult {
    do {
      return try await call()
    } catch {
      return OperationResult(throwing: error)
    }
  }
}

extension LinearizabilityOperations where Model == Subject {
  /// Adds an operation whose calls take one of `arguments`; the model is the subject's type.
  public func add<Argument: Sendable, Result: Equatable & Sendable>(
    _ name: String, arguments: [Argument], _ body: @escaping @Sendable (Subject, Argument) async throws -> Result
  ) {
    add(name, arguments: arguments, body, model: body)
  }

  /// Adds an operation without arguments; the model is the subject's type.
  public func add<Result: Equatable & Sendable>(_ name: String, _ body: @escaping @Sendable (Subject) async throws -> Result) {
    add(name, body, model: body)
  }

  /// Adds an operation that returns nothing and takes one of `arguments`; the model is the
  /// subject's type.
  public func add<Argument: Sendable>(
    _ name: String, arguments: [Argument], _ body: @escaping @Sendable (Subject, Argument) async throws -> Void
  ) {
    add(name, arguments: arguments, body, model: body)
  }

  /// Adds an operation that returns nothing and takes no argument; the model is the subject's type.
  public func add(_ name: String, _ body: @escaping @Sendable (Subject) async throws -> Void) {
    add(name, body, model: body)
  }
}

/// The one argument of an operation that takes none.
private struct NoArgument: Sendable {}
