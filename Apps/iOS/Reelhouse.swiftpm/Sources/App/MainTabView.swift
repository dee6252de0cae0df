import ReelFeatures
import SwiftUI

/// The web app's tab bar: each tab a `NavigationStack` over `appModel.paths[tab]`. Also where
/// the app's life reaches the models: the feed and stories pause when the scene leaves
/// `.active`, and the feed replays what waited once the network is back.
struct MainTabView: View {
    let session: SignedInSession
    @Environment(AppModel.self) private var appModel
    @Environment(NetworkPathMonitor.self) private var network
    @Environment(\.scenePhase) private var scenePhase

    var body: some View {
        @Bindable var appModel = appModel
        TabView(selection: $appModel.selectedTab) {
            ForEach(AppTab.allCases, id: \.self) { tab in
                NavigationStack(path: path(for: tab)) {
                    root(of: tab).appRoutes(session)
                }
                .tabItem { Label(tab.title, systemImage: tab.symbol) }
                .tag(tab)
            }
        }
        .environment(session)
        .onChange(of: scenePhase) { old, new in
            if old == .active, new != .active {
                Task { await session.feed.enterBackground() }
                if session.stories.isOpen { session.stories.enterBackground() }
            } else if new == .active, old != .active {
                if feedIsOnScreen { session.feed.enterForeground() }
                if session.stories.isOpen { session.stories.enterForeground() }
            }
        }
        .onChange(of: network.isOnline) { _, online in
            if online, session.feed.isOffline { Task { await session.feed.retry() } }
        }
    }

    private var feedIsOnScreen: Bool {
        appModel.selectedTab == .feed && (appModel.paths[.feed] ?? []).isEmpty
    }

    private func path(for tab: AppTab) -> Binding<[AppRoute]> {
        Binding(get: { appModel.paths[tab] ?? [] }, set: { appModel.paths[tab] = $0 })
    }

    @ViewBuilder
    private func root(of tab: AppTab) -> some View {
        switch tab {
        case .feed: FeedView(feed: session.feed)
        case .discover: DiscoverView(discover: session.discover)
        case .search: SearchView(search: session.search)
        case .create: CreateView(create: session.create)
        case .favorites: GridView(model: session.favorites)
        case .profile: ProfileView(profile: session.profile)
        }
    }
}

extension AppTab {
    var symbol: String {
        switch self {
        case .feed: "play.rectangle.on.rectangle"
        case .discover: "square.grid.2x2"
        case .search: "magnifyingglass"
        case .create: "plus.app"
        case .favorites: "heart"
        case .profile: "person.crop.circle"
        }
    }
}
