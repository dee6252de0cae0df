import ReelFeatures
import ReelModels
import SwiftUI

/// Under a story: the caption and the heart for someone else's; for the person's own, who saw
/// it, Keep (as a post) and Delete.
struct StoryFooter: View {
    let stories: StoriesModel
    @State private var showsViewers = false
    @State private var confirmsDelete = false

    var body: some View {
        VStack(alignment: .leading, spacing: 10) {
            if let caption = stories.currentItem?.caption, !caption.isEmpty {
                Text(caption).font(.subheadline).shadow(radius: 3)
            }
            if stories.isMine { ownBar } else { othersBar }
        }
        .frame(maxWidth: .infinity, alignment: .leading)
        .sheet(isPresented: $showsViewers, onDismiss: { stories.holdEnded() }) {
            StoryViewersList(stories: stories)
                .presentationDetents([.medium, .large])
        }
        .confirmationDialog("Delete this story item?", isPresented: $confirmsDelete, titleVisibility: .visible) {
            Button("Delete", role: .destructive) { Task { await stories.deleteCurrent() } }
        }
    }

    private var othersBar: some View {
        HStack {
            Spacer()
            Button { Task { await stories.toggleLike() } } label: {
                Image(systemName: stories.isLiked ? "heart.fill" : "heart")
                    .font(.title2)
                    .foregroundStyle(stories.isLiked ? Color.pink : Color.white)
            }
            .accessibilityLabel(stories.isLiked ? "Unlike" : "Like")
        }
    }

    private var ownBar: some View {
        HStack(spacing: 24) {
            Button {
                stories.holdBegan()
                showsViewers = true
            } label: {
                Label("\(stories.currentItem?.viewCount ?? 0)", systemImage: "eye")
            }
            Spacer()
            if stories.currentItem?.kept != true {
                Button { Task { await stories.keepAsPost() } } label: { Label("Keep", systemImage: "square.and.arrow.down") }
            }
            Button(role: .destructive) { stories.holdBegan(); confirmsDelete = true } label: { Label("Delete", systemImage: "trash") }
        }
        .font(.subheadline.weight(.semibold))
        .onChange(of: confirmsDelete) { _, shown in if !shown { stories.holdEnded() } }
    }
}

/// Who saw the person's own story item, newest first, and who liked it.
struct StoryViewersList: View {
    let stories: StoriesModel

    var body: some View {
        NavigationStack {
            List(stories.viewers, id: \.user) { viewer in
                HStack {
                    Text(viewer.user)
                    Spacer()
                    if viewer.liked { Image(systemName: "heart.fill").foregroundStyle(.pink) }
                    Text(StoryViewer.age(viewer.seenAt)).font(.caption).foregroundStyle(.secondary)
                }
            }
            .overlay { if stories.viewers.isEmpty { ContentUnavailableView("No viewers yet", systemImage: "eye") } }
            .navigationTitle("Viewers")
            .navigationBarTitleDisplayMode(.inline)
            .task { await stories.loadViewers() }
        }
    }
}
