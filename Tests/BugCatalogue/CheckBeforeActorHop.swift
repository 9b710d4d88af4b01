import Effects
import Synchronization

/// A login session, shared without an actor: checking and closing it are not suspension points.
private final class Session: Sendable {
  private let open = Mutex(true)
  var isOpen: Bool { open.withLock { $0 } }
  func close() { open.withLock { $0 = false } }
}

/// A server that must never serve a closed session.
private actor Server {
  private(set) var servedClosedSession = false

  /// Serves a request whose caller has checked the session.
  func serve(_ session: Session) {
    if !session.isOpen { servedClosedSession = true }
  }

  /// Checks the session on the actor, then serves the request.
  func serveIfOpen(_ session: Session) {
    if session.isOpen { serve(session) }
  }
}

/// A request and a logout, from tasks made by `spawn`; `request` is how the request reaches the
/// server. Checking the session before `await server.serve(…)` is not enough: stepping onto the
/// actor is a suspension point, and the logout can run before the actor's job does.
private func requestDuringLogout(_ spawn: Spawn, _ request: @escaping @Sendable (Server, Session) async -> Void) async throws {
  let session = Session()
  let server = Server()
  let requester = spawn(name: "request") { await request(server, session) }
  let logout = spawn(name: "logout") { session.close() }
  _ = await (requester.value, logout.value)
  try check(await !server.servedClosedSession, "the server served a session that was already closed")
}

extension ClassicBug {
  /// A session checked before a hop onto an actor, and used after the hop.
  public static let checkBeforeActorHop = ClassicBug(
    name: "check before an actor hop: the actor's job runs after a logout",
    buggy: { spawn in
      try await requestDuringLogout(spawn) { server, session in
        if session.isOpen { await server.serve(session) }
      }
    },
    fixed: { spawn in try await requestDuringLogout(spawn) { await $0.serveIfOpen($1) } },
    randomBudget: 20, pctBudget: 20)
}
