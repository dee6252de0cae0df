import Foundation
import Observation
import ReelKit
import ReelModels

/// The app as a whole: which server, signed in or not, the tabs and what each has pushed, deep
/// links, and the screen models of the signed-in session. A 401 from any screen lands here
/// and signs the app out, keeping the server address for the next sign-in.
@Observable @MainActor
public final class AppModel {
    public enum Phase: Sendable, Equatable {
        case launching, signedOut, signingIn, signedIn
    }

    public enum SignInMethod: Sendable, Equatable {
        case password(username: String, password: String)
        case apiKey(String)
    }

    public private(set) var phase: Phase = .launching
    /// What the sign-in screen shows under the form (wrong password, server unreachable, the
    /// session that ended).
    public private(set) var signInMessage: String?
    public var serverAddress = ""
    public private(set) var account: APIMe?
    public var selectedTab: AppTab = .feed
    /// Each tab's pushed screens, as a NavigationStack path.
    public var paths: [AppTab: [AppRoute]] = [:]
    public private(set) var session: SignedInSession?
    /// A deep link that arrived before sign-in finished: opened once signed in.
    private var pendingLink: AppRoute?

    private let credentials: any CredentialStore
    private let environment: AppEnvironment

    public init(credentials: any CredentialStore, environment: AppEnvironment) {
        self.credentials = credentials
        self.environment = environment
    }

    // MARK: Launch and sign-in

    /// Restores the saved sign-in: a server that still accepts it opens the feed, one that
    /// answers 401 forgets it, one that cannot be reached keeps it (offline launch: the
    /// screens show their offline state and retry).
    public func launch() async {
        guard let saved = try? credentials.load() else {
            phase = .signedOut
            return
        }
        serverAddress = saved.server.absoluteString
        let client = environment.client(saved.server, saved.credentials)
        do throws(ReelAPIError) {
            account = try await client.account()
            begin(client: client, server: saved.server, user: account?.name ?? "")
        } catch .offline(let why) {
            signInMessage = "The server did not answer (\(why)). Showing what was saved."
            begin(client: client, server: saved.server, user: "")
        } catch {
            try? credentials.delete()
            signInMessage = ScreenError(error).message
            phase = .signedOut
        }
    }

    public func signIn(_ method: SignInMethod) async {
        guard let server = Self.serverURL(serverAddress) else {
            signInMessage = "Enter the server's address, such as https://reels.example.org"
            return
        }
        phase = .signingIn
        signInMessage = nil
        let client = environment.client(server, .none)
        do throws(ReelAPIError) {
            let saved: SavedSignIn
            switch method {
            case .password(let username, let password):
                try await client.login(username: username, password: password)
                guard case .session(let token) = await client.credentials else { throw ReelAPIError.decoding("no session") }
                saved = SavedSignIn(server: server, kind: .session, secret: token)
            case .apiKey(let key):
                await client.use(.apiKey(key))
                saved = SavedSignIn(server: server, kind: .apiKey, secret: key)
            }
            let me = try await client.account()
            try? credentials.save(saved)
            account = me
            serverAddress = server.absoluteString
            begin(client: client, server: server, user: me.name)
        } catch {
            phase = .signedOut
            signInMessage = switch error {
            case .unauthorized(let code, _) where code == "invalid_credentials": "Wrong username or password."
            case .unauthorized: "The server did not accept this key."
            case .offline: "Could not reach \(server.host ?? serverAddress). Check the address and your connection."
            default: ScreenError(error).message
            }
        }
    }

    /// Ends the session on the server (when it can be reached) and here.
    public func signOut() async {
        if let session { try? await session.context.client.logout() }
        end(message: nil)
    }

    private func begin(client: ReelClient, server: URL, user: String) {
        let context = FeatureContext(
            client: client, clock: environment.clock, files: environment.files(server, user),
            account: account, prefetcher: environment.prefetcher(client), eventPolicy: environment.eventPolicy,
            onSignedOut: { [weak self] error in self?.end(message: error.message) }
        )
        session = SignedInSession(context: context, slots: environment.makeSlots(server))
        paths = [:]
        selectedTab = .feed
        phase = .signedIn
        if let pendingLink {
            self.pendingLink = nil
            show(pendingLink)
        }
    }

    private func end(message: String?) {
        try? credentials.delete()
        session?.close()
        session = nil
        account = nil
        paths = [:]
        signInMessage = message
        phase = .signedOut
    }

    // MARK: Navigation

    /// Opens a link; false when it is not one of ours (the caller may hand it to the browser).
    @discardableResult
    public func open(_ url: URL) -> Bool {
        let server = session.map { $0.context.client.baseURL } ?? Self.serverURL(serverAddress)
        guard let route = DeepLink.route(for: url, server: server) else { return false }
        guard phase == .signedIn else {
            pendingLink = route
            return true
        }
        show(route)
        return true
    }

    /// Pushes `route` on the tab that owns it: posts and stories over the current tab, browse
    /// results on Discover.
    public func show(_ route: AppRoute) {
        if case .browse = route { selectedTab = .discover }
        if selectedTab == .create { selectedTab = .feed }
        paths[selectedTab, default: []].append(route)
    }

    public func popToRoot(_ tab: AppTab) {
        paths[tab] = []
    }

    /// `host`, `host:port` or a full URL, as a person types it: https unless they say http;
    /// always ending in `/` so relative API paths resolve under it.
    public nonisolated static func serverURL(_ text: String) -> URL? {
        var text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return nil }
        if !text.contains("://") { text = "https://" + text }
        if !text.hasSuffix("/") { text += "/" }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty, url.query == nil, url.fragment == nil
        else { return nil }
        return url
    }
}
