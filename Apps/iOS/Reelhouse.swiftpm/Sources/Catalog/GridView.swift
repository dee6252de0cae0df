import ReelFeatures
import ReelModels
import SwiftUI

/// A shelf in full, a collection, or Favorites: one grid of posts with its title. Owners can
/// edit a collection.
struct GridView: View {
    @State private var model: GridModel
    @Environment(SignedInSession.self) private var session

    init(model: @autoclosure () -> GridModel) {
        _model = State(wrappedValue: model())
    }

    var body: some View {
        ScrollView {
            if model.list.hasLoaded, model.items.isEmpty {
                ContentUnavailableView(emptyTitle, systemImage: model.source == .favorites ? "heart" : "square.grid.3x3")
                    .padding(.top, 80)
            } else if !model.list.hasLoaded, let error = model.list.error {
                ErrorState(error: error) { await model.refresh() }
            } else {
                PosterGrid(list: model.list)
            }
        }
        .navigationTitle(model.title)
        .navigationBarTitleDisplayMode(.inline)
        .toolbar {
            if case .collection(let id) = model.source, session.context.isOwner {
                NavigationLink(value: AppRoute.collectionEditor(id)) { Text("Edit") }
            }
        }
        .refreshable { await model.refresh() }
        .task { await model.load() }
        .onAppear { Task { await model.dropUnfavorited() } }
    }

    private var emptyTitle: String {
        switch model.source {
        case .favorites: "Posts you heart show up here"
        case .shelf: "This shelf is empty"
        case .collection: "This collection is empty"
        }
    }
}
