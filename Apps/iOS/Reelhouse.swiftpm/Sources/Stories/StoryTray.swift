import ReelFeatures
import ReelModels
import SwiftUI

/// The row of rings: the person's own story first, unseen ones with a coloured ring. Tapping
/// one opens the viewer full screen.
struct StoryTray: View {
    let stories: StoriesModel
    @State private var presented: PresentedUser?

    struct PresentedUser: Identifiable { var id: String }

    var body: some View {
        ScrollView(.horizontal) {
            LazyHStack(spacing: 14) {
                ForEach(stories.tray, id: \.user) { entry in
                    Button { presented = PresentedUser(id: entry.user) } label: { ring(entry) }
                        .buttonStyle(.plain)
                        .onAppear { if entry.user == stories.tray.last?.user, stories.hasMoreTray { Task { await stories.loadTray() } } }
                }
            }
            .padding(.horizontal)
        }
        .scrollIndicators(.hidden)
        .frame(height: stories.tray.isEmpty ? 0 : 96)
        .task { if stories.tray.isEmpty { await stories.loadTray() } }
        .fullScreenCover(item: $presented) { user in
            StoryViewer(user: user.id, onClose: { presented = nil })
        }
    }

    private func ring(_ entry: APIStoryTrayEntry) -> some View {
        VStack(spacing: 4) {
            RemoteImage(path: entry.avatar?.url)
                .frame(width: 62, height: 62)
                .clipShape(Circle())
                .padding(3)
                .overlay {
                    Circle().strokeBorder(
                        entry.allSeen ? AnyShapeStyle(Color.secondary.opacity(0.4)) : AnyShapeStyle(LinearGradient(colors: [.orange, .pink, .purple], startPoint: .bottomLeading, endPoint: .topTrailing)),
                        lineWidth: 2.5
                    )
                }
            Text(entry.isMe ? "Your story" : entry.user)
                .font(.caption2)
                .lineLimit(1)
                .frame(width: 72)
        }
    }
}
