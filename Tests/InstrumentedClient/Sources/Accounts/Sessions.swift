import Synchronization

/// A user's session, made once per user.
public final class Session: Sendable {
  /// The user it belongs to.
  public let user: String

  init(user: String) { self.user = user }
}

/// Sessions by user, made on first use. With `looksUpThenStores`, the lookup and the store are
/// two critical sections with no `await` between: two callers between them both make a session.
public final class Sessions: Sendable {
  private let byUser = Mutex<[String: Session]>([:])
  private let looksUpThenStores: Bool

  /// Creates an empty store.
  public init(looksUpThenStores: Bool) { self.looksUpThenStores = looksUpThenStores }

  /// The user's session, made if there is none yet.
  public func session(for user: String) -> Session {
    guard looksUpThenStores else {
      return byUser.withLock { sessions in
        if let session = sessions[user] { return session }
        let session = Session(user: user)
        sessions[user] = session
        return session
      }
    }
    if let session = byUser.withLock({ $0[user] }) { return session }
    let session = Session(user: user)
    byUser.withLock { $0[user] = session }
    return session
  }
}
