import ReelFeatures
import ReelModels
import SwiftUI

/// The stories viewer: progress bars, tap left/right, hold to pause, swipe sideways for the
/// next or previous person, swipe down to close. A `TimelineView(.animation)` drives the
/// model's clock; the model decides what shows and when.
struct StoryViewer: View {
    let user: String
    let onClose: () -> Void
    @Environment(SignedInSession.self) private var session
    @State private var drag: CGSize = .zero

    private var stories: StoriesModel { session.stories }

    var body: some View {
        @Bindable var stories = session.stories
        ZStack {
            Color.black.ignoresSafeArea()
            if let item = stories.currentItem {
                StoryMedia(item: item, stories: stories).id(item.id)
            } else if let error = stories.error {
                ErrorState(error: error) { await stories.open(user: user) }.environment(\.colorScheme, .dark)
            } else {
                ProgressView().tint(.white)
            }
            if stories.currentItem != nil { tapZones }
            VStack(spacing: 10) {
                progressBars
                header
                Spacer()
                StoryFooter(stories: stories)
            }
            .padding(.horizontal, 10)
            .padding(.vertical, 8)
            .foregroundStyle(.white)
            TimelineView(.animation(paused: !stories.isOpen || stories.isPaused)) { timeline in
                Color.clear.onChange(of: timeline.date) { Task { await stories.tick() } }
            }
            .allowsHitTesting(false)
        }
        .offset(y: max(0, drag.height))
        .simultaneousGesture(swipes)
        .notice($stories.notice)
        .statusBarHidden()
        .task { await stories.open(user: user) }
        .onChange(of: stories.isOpen) { wasOpen, isOpen in
            if wasOpen, !isOpen { onClose() }
        }
        .onDisappear { if stories.isOpen { stories.close() } }
    }

    private var progressBars: some View {
        HStack(spacing: 3) {
            ForEach(0..<max(stories.segmentCount, 0), id: \.self) { index in
                GeometryReader { proxy in
                    Capsule().fill(.white.opacity(0.35))
                        .overlay(alignment: .leading) {
                            Capsule().fill(.white).frame(width: proxy.size.width * fill(index))
                        }
                }
                .frame(height: 2.5)
            }
        }
    }

    private func fill(_ index: Int) -> Double {
        index < stories.segmentIndex ? 1 : index == stories.segmentIndex ? stories.progress : 0
    }

    private var header: some View {
        HStack {
            Text(stories.isMine ? "Your story" : stories.currentUser ?? user).font(.subheadline.bold())
            if let posted = stories.currentItem?.postedAt { Text(Self.age(posted)).font(.caption).opacity(0.7) }
            Spacer()
            Button { if stories.isOpen { stories.close() } else { onClose() } } label: { Image(systemName: "xmark").font(.title3) }
                .accessibilityLabel("Close")
        }
        .shadow(radius: 3)
    }

    /// Left third back, the rest forward; a touch held pauses until it lifts.
    private var tapZones: some View {
        GeometryReader { proxy in
            HStack(spacing: 0) {
                zone { Task { await stories.tapLeft() } }.frame(width: proxy.size.width / 3)
                zone { Task { await stories.tapRight() } }
            }
        }
        .padding(.vertical, 80)
    }

    private func zone(_ tap: @escaping () -> Void) -> some View {
        Color.clear.contentShape(Rectangle())
            .onTapGesture(perform: tap)
            .onLongPressGesture(minimumDuration: 0.2, maximumDistance: 20, perform: {}, onPressingChanged: { pressing in
                if pressing { stories.holdBegan() } else { stories.holdEnded() }
            })
    }

    private var swipes: some Gesture {
        DragGesture(minimumDistance: 24)
            .onChanged { value in if abs(value.translation.height) > abs(value.translation.width) { drag = value.translation } }
            .onEnded { value in
                let dx = value.translation.width, dy = value.translation.height
                withAnimation(.easeOut(duration: 0.2)) { drag = .zero }
                if abs(dx) > abs(dy), abs(dx) > 60 {
                    Task { if dx < 0 { await stories.swipeLeft() } else { await stories.swipeRight() } }
                } else if dy > 120 {
                    stories.swipeDown()
                }
            }
    }

    static func age(_ iso: String) -> String {
        guard let date = try? Date(iso, strategy: .iso8601) else { return "" }
        return date.formatted(.relative(presentation: .named, unitsStyle: .abbreviated))
    }
}
