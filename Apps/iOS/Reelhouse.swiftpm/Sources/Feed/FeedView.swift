import AVFoundation
import ReelFeatures
import ReelKit
import ReelKitAVFoundation
import ReelModels
import SwiftUI

/// The feed: one full-screen page per item, paged vertically. The model's three player slots
/// move as the person swipes; each page shows the `AVPlayer` of the slot holding its item.
struct FeedView: View {
    let feed: FeedModel
    @Environment(SignedInSession.self) private var session
    @Environment(NetworkPathMonitor.self) private var network
    @State private var position: Int64?
    @State private var muted = true
    @State private var started = false

    var body: some View {
        @Bindable var feed = feed
        ZStack(alignment: .top) {
            Color.black.ignoresSafeArea()
            if feed.items.isEmpty {
                emptyState
            } else {
                pages
            }
            VStack(spacing: 8) {
                FeedModePicker(feed: feed)
                if feed.isOffline {
                    OfflineBanner(waiting: feed.waitingChanges) { await feed.retry() }
                }
            }
            .padding(.top, 8)
        }
        .notice($feed.notice)
        .toolbar(.hidden, for: .navigationBar)
        .toolbarBackground(.black, for: .tabBar)
        .task {
            guard !started else { return }
            started = true
            muted = session.profile.preferences.startMuted
            wireSlots()
            await feed.start()
        }
        .task(id: network.savesData(session.profile.preferences)) {
            let saves = network.savesData(session.profile.preferences)
            for slot in playerSlots { slot.peakBitRate = saves ? 1_000_000 : 0 }
        }
        .onChange(of: muted, initial: true) { _, muted in
            for slot in playerSlots { slot.player.isMuted = muted }
        }
        .onChange(of: feed.current?.id, initial: true) { _, id in
            if position != id { position = id }
        }
        .onAppear { feed.enterForeground() }
        .onDisappear { Task { await feed.enterBackground() } }
    }

    private var pages: some View {
        ScrollView(.vertical) {
            LazyVStack(spacing: 0) {
                ForEach(feed.items, id: \.id) { item in
                    FeedPage(item: item, feed: feed, player: player(for: item.id), muted: $muted)
                        .containerRelativeFrame([.horizontal, .vertical])
                        .id(item.id)
                }
            }
            .scrollTargetLayout()
        }
        .scrollTargetBehavior(.paging)
        .scrollIndicators(.hidden)
        .scrollPosition(id: $position)
        .ignoresSafeArea(edges: .top)
        .onChange(of: position) { _, id in
            guard let id, let index = feed.items.firstIndex(where: { $0.id == id }) else { return }
            Task { await feed.move(to: index) }
        }
        .refreshable { await feed.reload() }
    }

    @ViewBuilder
    private var emptyState: some View {
        if let error = feed.error {
            ErrorState(error: error) { await feed.reload() }.environment(\.colorScheme, .dark)
        } else if feed.isLoading || !feed.items.isEmpty {
            ProgressView().tint(.white).frame(maxHeight: .infinity)
        } else {
            ContentUnavailableView {
                Label("Nothing here yet", systemImage: "film.stack")
            } description: {
                Text("Posts appear here once the server has some.")
            } actions: {
                Button("Reload") { Task { await feed.reload() } }
            }
            .environment(\.colorScheme, .dark)
        }
    }

    // MARK: Players

    private var playerSlots: [AVPlayerSlot] {
        feed.slots.compactMap { $0.base as? AVPlayerSlot }
    }

    /// The player of the slot that holds `id`, if any does.
    private func player(for id: Int64) -> AVPlayer? {
        guard let index = feed.slotContents.firstIndex(of: id), feed.slots.indices.contains(index) else { return nil }
        return (feed.slots[index].base as? AVPlayerSlot)?.player
    }

    /// Players report back to the model: what was watched, and signed URLs that stopped working.
    private func wireSlots() {
        for slot in playerSlots {
            slot.onPlayback = { id, watchedMs, loops in
                if feed.current?.id == id { feed.reportPlayback(watchedMs: watchedMs, loops: loops) }
            }
            slot.onFailure = { id, status in
                guard let error = Self.mediaError(status: status, item: feed.items.first { $0.id == id }) else { return }
                Task { await feed.mediaFailed(id, error: error) }
            }
        }
    }

    /// 403 and 410 from a media URL (AVPlayer's error log); with no status, a failure after the
    /// URLs' expiry time counts as expired. Anything else is not the model's to fix.
    static func mediaError(status: Int?, item: APIVideo?) -> ReelAPIError? {
        switch status {
        case 403: return .forbidden(message: "media request refused")
        case 410: return .expired(message: "media URL expired")
        case nil:
            guard let expires = item?.media.expiresAt, Date().timeIntervalSince1970 >= Double(expires) else { return nil }
            return .expired(message: "media URL past its expiry")
        default: return nil
        }
    }
}

/// For You, Shuffle, Latest along the top, Reels style.
struct FeedModePicker: View {
    let feed: FeedModel

    var body: some View {
        HStack(spacing: 20) {
            ForEach(FeedMode.allCases, id: \.self) { mode in
                Button { Task { await feed.select(mode: mode) } } label: {
                    Text(mode.title)
                        .font(.subheadline.weight(selected == mode ? .bold : .medium))
                        .foregroundStyle(selected == mode ? Color.white : Color.white.opacity(0.6))
                }
            }
        }
        .shadow(radius: 3)
    }

    private var selected: FeedMode? { feed.mode ?? feed.servedMode }
}

extension FeedMode {
    var title: String {
        switch self {
        case .forYou: "For You"
        case .shuffle: "Shuffle"
        case .latest: "Latest"
        }
    }
}
