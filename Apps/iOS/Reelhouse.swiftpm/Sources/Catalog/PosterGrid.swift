import ReelFeatures
import ReelModels
import SwiftUI

/// Three posters a row, each opening the post's page; the list's next page is asked for as
/// the last cells appear.
struct PosterGrid: View {
    let list: PagedList<APIVideo>

    private let columns = Array(repeating: GridItem(.flexible(), spacing: 2), count: 3)

    var body: some View {
        LazyVGrid(columns: columns, spacing: 2) {
            ForEach(list.items, id: \.id) { item in
                NavigationLink(value: AppRoute.post(item.id)) {
                    PosterCell(item: item)
                }
                .buttonStyle(.plain)
                .onAppear { Task { await list.appeared(item.id) } }
            }
        }
        if list.isLoading {
            ProgressView().padding()
        } else if let error = list.error {
            VStack(spacing: 8) {
                Text(error.message).font(.footnote).foregroundStyle(.secondary)
                Button("Try again") { Task { await list.loadMore() } }
            }
            .padding()
        }
    }
}

/// A post's poster at 9:16 with a mark for videos and photo sets.
struct PosterCell: View {
    let item: APIVideo

    var body: some View {
        Color.clear
            .aspectRatio(9.0 / 16.0, contentMode: .fit)
            .overlay { RemoteImage(path: (item.media.thumbnail ?? item.media.poster)?.url) }
            .overlay(alignment: .topTrailing) {
                Image(systemName: item.kind == .video ? "play.fill" : item.kind == .carousel ? "square.on.square" : "photo")
                    .font(.caption2)
                    .foregroundStyle(.white)
                    .shadow(radius: 2)
                    .padding(6)
            }
            .clipped()
            .accessibilityLabel(item.description ?? "Post \(item.id)")
    }
}
