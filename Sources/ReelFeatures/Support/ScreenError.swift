import ReelKit

/// What a screen shows when something failed, sorted by what the person can do about it.
/// Every model turns a `ReelAPIError` into one of these in one place (`FeatureContext.failed`),
/// so a 401 anywhere signs the app out and the words are the same on every screen.
public struct ScreenError: Error, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// No connection: shown as a banner; the screen keeps what it had and retries.
        case offline
        /// The credentials stopped working: the app is back at sign-in.
        case signedOut
        /// Too many requests: try again after `retryAfter` seconds.
        case rateLimited(retryAfter: Int?)
        /// The thing is gone (deleted, or never existed).
        case notFound
        /// Signed in, but not allowed (an owner-only action).
        case notAllowed
        /// The server refused the input; `message` says why.
        case rejected
        /// The server failed or answered something this app does not understand.
        case server
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public init(_ error: ReelAPIError) {
        switch error {
        case .offline: self.init(.offline, "You're offline. Changes are kept and sent when the connection is back.")
        case .unauthorized: self.init(.signedOut, "Your session ended. Sign in again.")
        case .rateLimited(let seconds):
            self.init(.rateLimited(retryAfter: seconds), "Too many requests. Try again in \(seconds.map { "\($0) s" } ?? "a moment").")
        case .notFound(let message): self.init(.notFound, message.isEmpty ? "This is no longer here." : message)
        case .forbidden(let message): self.init(.notAllowed, message.isEmpty ? "You are not allowed to do that." : message)
        case .expired: self.init(.server, "The link expired. Pull to refresh.")
        case .rejected(_, _, let message): self.init(.rejected, message)
        case .server(let status, _): self.init(.server, "The server failed (\(status)). Try again later.")
        case .decoding: self.init(.server, "The server answered something this app does not understand. Update the app or the server.")
        }
    }

    public var isOffline: Bool { kind == .offline }
}
