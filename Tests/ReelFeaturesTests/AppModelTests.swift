import Foundation
import ReelFeatures
import ReelKit
import ReelKitTestDoubles
import ReelModels
import ReelServer
import ReelStore
import ReelStoreSQLite
import ReelTestFiles
import ReelTestSupport
import Testing

/// Signing in and out, staying signed in across launches, a 401 from any screen, deep links.
@Suite(.serialized) @MainActor struct AppModelTests {
    @Test func aPasswordSignInKeepsTheSessionAndOpensTheFeed() async throws {
        try await withHarness { harness in
            let saved = InMemoryCredentialStore()
            let app = AppModel(credentials: saved, environment: harness.appEnvironment())
            await app.launch()
            #expect(app.phase == .signedOut)
            app.serverAddress = harness.server.baseURL.absoluteString
            await app.signIn(.password(username: "owner", password: "wrong password"))
            #expect(app.phase == .signedOut && app.signInMessage == "Wrong username or password.")
            #expect(saved.load() == nil)

            await app.signIn(.password(username: "owner", password: LiveServer.password))
            #expect(app.phase == .signedIn && app.account?.name == "owner" && app.selectedTab == .feed)
            let kept = try #require(saved.load())
            #expect(kept.kind == .session && kept.server == harness.server.baseURL)
            let session = try #require(app.session)
            await session.feed.start()
            #expect(session.feed.items.count == 4)

            // The next launch restores it without asking.
            let relaunched = AppModel(credentials: saved, environment: harness.appEnvironment())
            await relaunched.launch()
            #expect(relaunched.phase == .signedIn && relaunched.account?.name == "owner")

            await app.signOut()
            #expect(app.phase == .signedOut && app.session == nil && saved.load() == nil)
            // The session is over on the server too.
            await #expect(throws: ReelAPIError.self) { try await harness.client(kept.credentials).me() }
        }
    }

    @Test func aKeyTheServerNoLongerAcceptsSignsOutAtLaunchAndIsForgotten() async throws {
        try await withHarness(videos: 1) { harness in
            let saved = InMemoryCredentialStore(SavedSignIn(server: harness.server.baseURL, kind: .apiKey, secret: "rh_not_a_real_key_0000000000000000"))
            let app = AppModel(credentials: saved, environment: harness.appEnvironment())
            await app.launch()
            #expect(app.phase == .signedOut && app.signInMessage == "Your session ended. Sign in again.")
            #expect(saved.load() == nil)

            app.serverAddress = harness.server.baseURL.absoluteString
            await app.signIn(.apiKey("rh_not_a_real_key_0000000000000000"))
            #expect(app.phase == .signedOut && app.signInMessage == "The server did not accept this key.")
            await app.signIn(.apiKey(harness.server.ownerKey))
            #expect(app.phase == .signedIn && saved.load()?.kind == .apiKey)
        }
    }

    @Test func a401OnAnyScreenSignsTheAppOut() async throws {
        try await withHarness { harness in
            let saved = InMemoryCredentialStore()
            let app = AppModel(credentials: saved, environment: harness.appEnvironment())
            app.serverAddress = harness.server.baseURL.absoluteString
            await app.signIn(.password(username: "owner", password: LiveServer.password))
            let session = try #require(app.session)
            let token = try #require(saved.load()).secret
            // The session ends elsewhere (signed out on another device).
            try await harness.client(.session(token)).logout()

            await session.discover.load()
            #expect(app.phase == .signedOut && app.session == nil)
            #expect(app.signInMessage == "Your session ended. Sign in again.")
            #expect(saved.load() == nil)
            #expect(app.serverAddress == harness.server.baseURL.absoluteString, "the address stays for the next sign-in")
        }
    }

    @Test func anUnreachableServerSaysSoAndAnOfflineLaunchKeepsTheSignIn() async throws {
        try await withHarness(videos: 1) { harness in
            let saved = InMemoryCredentialStore()
            let app = AppModel(credentials: saved, environment: harness.appEnvironment())
            app.serverAddress = harness.server.baseURL.absoluteString
            await app.signIn(.apiKey(harness.server.ownerKey))
            await harness.server.stop()

            let relaunched = AppModel(credentials: saved, environment: harness.appEnvironment())
            await relaunched.launch()
            #expect(relaunched.phase == .signedIn, "no answer is not a refusal: the saved sign-in stays")
            #expect(relaunched.signInMessage?.hasPrefix("The server did not answer") == true)
            #expect(saved.load() != nil)

            let other = AppModel(credentials: InMemoryCredentialStore(), environment: harness.appEnvironment())
            other.serverAddress = harness.server.baseURL.absoluteString
            await other.signIn(.apiKey(harness.server.ownerKey))
            #expect(other.phase == .signedOut && other.signInMessage == "Could not reach 127.0.0.1. Check the address and your connection.")
            try await harness.server.start()
        }
    }

    @Test func theFeedOpensInTheOrderChosenInProfile() async throws {
        try await withHarness(videos: 3) { harness in
            let app = AppModel(credentials: InMemoryCredentialStore(), environment: harness.appEnvironment())
            app.serverAddress = harness.server.baseURL.absoluteString
            await app.signIn(.apiKey(harness.server.ownerKey))
            #expect(app.session?.feed.mode == nil)
            app.session?.profile.preferences.startMode = FeedMode.latest.rawValue
            await app.signOut()
            await app.signIn(.apiKey(harness.server.ownerKey))
            let feed = try #require(app.session?.feed)
            #expect(feed.mode == .latest)
            await feed.start()
            #expect(feed.servedMode == .latest && feed.items.map(\.id) == harness.server.videoIDs.reversed())
        }
    }

    @Test func aLinkThatArrivesBeforeSignInOpensAfterIt() async throws {
        try await withHarness(videos: 2) { harness in
            let app = AppModel(credentials: InMemoryCredentialStore(), environment: harness.appEnvironment())
            await app.launch()
            let id = harness.server.videoIDs[1]
            app.serverAddress = harness.server.baseURL.absoluteString
            #expect(app.open(URL(string: "reelhouse://p/\(id)")!))
            #expect(!app.open(URL(string: "https://elsewhere.example/p/\(id)")!), "another site's link is not ours")
            await app.signIn(.apiKey(harness.server.ownerKey))
            #expect(app.paths[.feed] == [.post(id)])

            // Signed in: a web link to the same server pushes on the current tab; a tag opens Discover.
            app.selectedTab = .favorites
            #expect(app.open(harness.server.baseURL.appendingPathComponent("collection/7")))
            #expect(app.paths[.favorites] == [.collection(7)])
            #expect(app.open(URL(string: "reelhouse://browse?tags=retro,broadcast")!))
            #expect(app.selectedTab == .discover && app.paths[.discover] == [.browse(tags: ["retro", "broadcast"])])
            app.popToRoot(.discover)
            #expect(app.paths[.discover] == [])
        }
    }
}

/// Deep links and server addresses as pure values.
@Suite struct DeepLinkTests {
    let server = URL(string: "https://reels.example.org/")!

    @Test func theAppSchemeAndTheServersOwnLinksBecomeRoutes() {
        #expect(DeepLink.route(for: URL(string: "reelhouse://p/12")!, server: nil) == .post(12))
        #expect(DeepLink.route(for: URL(string: "https://reels.example.org/p/12")!, server: server) == .post(12))
        #expect(DeepLink.route(for: URL(string: "https://REELS.example.org:443/p/12")!, server: server) == .post(12))
        #expect(DeepLink.route(for: URL(string: "https://reels.example.org/shelf/tag-retro")!, server: server) == .shelf("tag-retro"))
        #expect(DeepLink.route(for: URL(string: "https://reels.example.org/stories/mia")!, server: server) == .stories(user: "mia"))
        #expect(DeepLink.route(for: URL(string: "reelhouse://collection/3")!, server: nil) == .collection(3))
        // A server under a prefix keeps it out of the route.
        let prefixed = URL(string: "https://home.example/reels/")!
        #expect(DeepLink.route(for: URL(string: "https://home.example/reels/p/5")!, server: prefixed) == .post(5))
        #expect(DeepLink.route(for: URL(string: "https://home.example/p/5")!, server: prefixed) == nil)
    }

    @Test func linksThatAreNotOursOrNotWellFormedAreRefused() {
        #expect(DeepLink.route(for: URL(string: "https://evil.example/p/12")!, server: server) == nil)
        #expect(DeepLink.route(for: URL(string: "http://reels.example.org/p/12")!, server: server) == nil, "another scheme is another origin")
        #expect(DeepLink.route(for: URL(string: "reelhouse://p/0")!, server: nil) == nil)
        #expect(DeepLink.route(for: URL(string: "reelhouse://p/abc")!, server: nil) == nil)
        #expect(DeepLink.route(for: URL(string: "reelhouse://p/1/2")!, server: nil) == nil)
        #expect(DeepLink.route(for: URL(string: "reelhouse://shelf/..%2F..")!, server: nil) == nil)
        #expect(DeepLink.route(for: URL(string: "ftp://reels.example.org/p/1")!, server: server) == nil)
    }

    @Test func aServerAddressIsReadAsAPersonTypesIt() {
        #expect(AppModel.serverURL("reels.example.org")?.absoluteString == "https://reels.example.org/")
        #expect(AppModel.serverURL(" http://10.0.0.2:8080 ")?.absoluteString == "http://10.0.0.2:8080/")
        #expect(AppModel.serverURL("https://home.example/reels")?.absoluteString == "https://home.example/reels/")
        #expect(AppModel.serverURL("") == nil)
        #expect(AppModel.serverURL("ftp://x.example") == nil)
        #expect(AppModel.serverURL("https://x.example/?q=1") == nil)
    }
}
