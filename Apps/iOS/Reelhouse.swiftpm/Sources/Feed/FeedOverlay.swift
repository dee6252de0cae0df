import ReelFeatures
import ReelKit
import ReelModels
import SwiftUI

/// What sits over a feed page: who posted it and its caption (tap for the post's page), why
/// For You chose it, and the rail: heart, stars, AirPlay, the ⋯ menu.
struct FeedOverlay: View {
    let item: APIVideo
    let feed: FeedModel
    let muted: Bool
    @Environment(\.serverURL) private var server

    var body: some View {
        HStack(alignment: .bottom, spacing: 12) {
            caption
            Spacer(minLength: 0)
            rail
        }
        .padding(.horizontal, 14)
        .padding(.bottom, 20)
        .frame(maxHeight: .infinity, alignment: .bottom)
        .foregroundStyle(.white)
        .shadow(color: .black.opacity(0.5), radius: 4)
        .background(alignment: .bottom) {
            LinearGradient(colors: [.clear, .black.opacity(0.45)], startPoint: .top, endPoint: .bottom)
                .frame(height: 220).allowsHitTesting(false)
        }
    }

    private var state: PostState { feed.state(of: item.id) }

    private var caption: some View {
        NavigationLink(value: AppRoute.post(item.id)) {
            VStack(alignment: .leading, spacing: 6) {
                if let name = item.uploader ?? item.username {
                    Text("@\(name)").font(.subheadline.bold())
                }
                if let text = item.description, !text.isEmpty {
                    Text(text).font(.subheadline).lineLimit(2).multilineTextAlignment(.leading)
                }
                if let reason = item.reason {
                    Label(reason, systemImage: "sparkles").font(.caption).opacity(0.85)
                }
            }
        }
        .buttonStyle(.plain)
    }

    private var rail: some View {
        VStack(spacing: 22) {
            Button { Task { await feed.toggleLike(item.id) } } label: {
                Image(systemName: state.isFavorited ? "heart.fill" : "heart")
                    .font(.title)
                    .foregroundStyle(state.isFavorited ? Color.pink : Color.white)
            }
            .accessibilityLabel(state.isFavorited ? "Remove from favorites" : "Add to favorites")
            Menu {
                ForEach(1...5, id: \.self) { stars in
                    Button { Task { await feed.rate(item.id, stars: stars) } } label: {
                        Label(String(repeating: "★", count: stars), systemImage: state.rating == stars ? "checkmark" : "star")
                    }
                }
                if state.rating > 0 {
                    Button("Clear rating", role: .destructive) { Task { await feed.rate(item.id, stars: 0) } }
                }
            } label: {
                VStack(spacing: 2) {
                    Image(systemName: state.rating > 0 ? "star.fill" : "star").font(.title2)
                    if state.rating > 0 { Text("\(state.rating)").font(.caption2.bold()) }
                }
            }
            .accessibilityLabel("Rating")
            if item.kind == .video {
                RoutePicker().frame(width: 30, height: 30)
                Image(systemName: muted ? "speaker.slash.fill" : "speaker.wave.2.fill").font(.callout).opacity(0.8)
            }
            Menu {
                Button { Task { await feed.notInterested(item.id) } } label: { Label("Not interested", systemImage: "eye.slash") }
                if let name = item.uploader ?? item.username {
                    Button { Task { await feed.hideUploader(of: item.id) } } label: { Label("Hide posts by \(name)", systemImage: "person.crop.circle.badge.xmark") }
                }
                if let link = URL.media("p/\(item.id)", base: server) {
                    ShareLink(item: link) { Label("Share", systemImage: "square.and.arrow.up") }
                }
            } label: {
                Image(systemName: "ellipsis").font(.title2).frame(width: 30, height: 30)
            }
            .accessibilityLabel("More")
        }
    }
}
