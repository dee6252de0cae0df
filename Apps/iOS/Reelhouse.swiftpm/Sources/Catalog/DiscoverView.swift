import ReelFeatures
import ReelModels
import SwiftUI

/// Discover: the stories tray, the library picker when there is a choice, the collections
/// row, and the server's shelves (each opening in full).
struct DiscoverView: View {
    let discover: DiscoverModel
    @Environment(SignedInSession.self) private var session

    var body: some View {
        ScrollView {
            LazyVStack(alignment: .leading, spacing: 20) {
                StoryTray(stories: session.stories)
                if let error = discover.content.error {
                    ErrorState(error: error) { await discover.load() }
                } else if discover.content.isLoading {
                    ProgressView().frame(maxWidth: .infinity).padding(.top, 60)
                }
                if !discover.collections.isEmpty { collectionsRow }
                ForEach(discover.shelves) { shelf in
                    ShelfRow(shelf: shelf)
                }
            }
            .padding(.vertical)
        }
        .navigationTitle(discover.libraryName ?? "Discover")
        .toolbar {
            if discover.showsLibraryPicker {
                Menu {
                    Button { Task { await discover.select(library: nil) } } label: { check("All libraries", discover.library == nil) }
                    ForEach(discover.libraries, id: \.id) { library in
                        Button { Task { await discover.select(library: library.id) } } label: { check(library.name, discover.library == library.id) }
                    }
                } label: { Image(systemName: "books.vertical") }
            }
            NavigationLink(value: AppRoute.browse(tags: [])) { Text("Browse") }
        }
        .refreshable {
            await discover.load()
            await session.stories.refreshTray()
        }
        .task { if discover.content.value == nil { await discover.load() } }
    }

    @ViewBuilder
    private func check(_ title: String, _ on: Bool) -> some View {
        if on { Label(title, systemImage: "checkmark") } else { Text(title) }
    }

    private var collectionsRow: some View {
        VStack(alignment: .leading, spacing: 8) {
            Text("Collections").font(.headline).padding(.horizontal)
            ScrollView(.horizontal) {
                LazyHStack(spacing: 12) {
                    ForEach(discover.collections, id: \.id) { collection in
                        NavigationLink(value: AppRoute.collection(collection.id)) {
                            VStack(alignment: .leading, spacing: 4) {
                                RemoteImage(path: collection.cover?.url)
                                    .frame(width: 140, height: 90)
                                    .clipShape(RoundedRectangle(cornerRadius: 8))
                                Text(collection.name).font(.subheadline).lineLimit(1)
                                Text("\(collection.count) posts").font(.caption).foregroundStyle(.secondary)
                            }
                            .frame(width: 140)
                        }
                        .buttonStyle(.plain)
                    }
                }
                .padding(.horizontal)
            }
            .scrollIndicators(.hidden)
        }
    }
}

/// One shelf: its title (opening it in full) and a row of posters.
struct ShelfRow: View {
    let shelf: APIShelf

    var body: some View {
        VStack(alignment: .leading, spacing: 8) {
            NavigationLink(value: AppRoute.shelf(shelf.id)) {
                HStack {
                    Text(shelf.title).font(.headline)
                    Image(systemName: "chevron.right").font(.caption.bold()).foregroundStyle(.secondary)
                }
            }
            .buttonStyle(.plain)
            .padding(.horizontal)
            ScrollView(.horizontal) {
                LazyHStack(spacing: 6) {
                    ForEach(shelf.items, id: \.id) { item in
                        NavigationLink(value: AppRoute.post(item.id)) {
                            PosterCell(item: item).frame(width: 110).clipShape(RoundedRectangle(cornerRadius: 6))
                        }
                        .buttonStyle(.plain)
                    }
                }
                .padding(.horizontal)
            }
            .scrollIndicators(.hidden)
        }
    }
}
