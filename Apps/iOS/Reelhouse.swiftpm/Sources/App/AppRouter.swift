import ReelFeatures
import SwiftUI

/// The one switch from a route to its screen (IceCubes' `RouterDestination`, here
/// `ReelFeatures.AppRoute`). Pushed screens get a fresh model per route from the session;
/// each screen keeps it in `@State`, so it lives as long as the screen is on the stack.
struct AppRouter: View {
    let route: AppRoute
    let session: SignedInSession

    var body: some View {
        switch route {
        case .post(let id):
            DetailView(model: session.detail(id))
        case .shelf(let id):
            GridView(model: session.shelf(id))
        case .collection(let id):
            GridView(model: session.collection(id))
        case .collectionEditor(let id):
            CollectionEditorView(model: session.collectionEditor(id))
        case .stories(let user):
            StoryRouteView(user: user)
        case .browse(let tags):
            BrowseView(model: session.browse(tags: tags))
        }
    }
}

extension View {
    /// Every tab's `NavigationStack` resolves `AppRoute` values through `AppRouter`.
    func appRoutes(_ session: SignedInSession) -> some View {
        navigationDestination(for: AppRoute.self) { route in
            AppRouter(route: route, session: session)
        }
    }
}

/// A story link (`/stories/NAME`): the viewer over the tab, gone again when it closes.
struct StoryRouteView: View {
    let user: String
    @Environment(\.dismiss) private var dismiss

    var body: some View {
        StoryViewer(user: user, onClose: { dismiss() })
            .toolbar(.hidden, for: .navigationBar, .tabBar)
    }
}
