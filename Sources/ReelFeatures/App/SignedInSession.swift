import Foundation
import Observation
import ReelKit
import ReelModels

/// The screen models of one signed-in session: the tabs' models live as long as the session
/// (switching tabs keeps each one's place); pushed screens get a fresh model per route.
@Observable @MainActor
public final class SignedInSession {
    public let context: FeatureContext
    public let feed: FeedModel
    public let stories: StoriesModel
    public let discover: DiscoverModel
    public let search: SearchModel
    public let favorites: GridModel
    public let profile: ProfileModel
    public let create: CreateModel

    public init(context: FeatureContext, slots: [AnyPlayerSlot]) {
        self.context = context
        profile = ProfileModel(context: context)
        // The order the person chose in Profile; nil lets the server pick.
        feed = FeedModel(context: context, slots: slots, mode: profile.preferences.startMode.flatMap(FeedMode.init(rawValue:)))
        stories = StoriesModel(context: context)
        discover = DiscoverModel(context: context)
        search = SearchModel(context: context)
        favorites = GridModel(context: context, source: .favorites)
        create = CreateModel(context: context)
    }

    public func detail(_ id: Int64) -> DetailModel { DetailModel(context: context, id: id) }
    public func shelf(_ id: String) -> GridModel { GridModel(context: context, source: .shelf(id)) }
    public func collection(_ id: Int64) -> GridModel { GridModel(context: context, source: .collection(id)) }
    public func collectionEditor(_ id: Int64) -> CollectionEditorModel { CollectionEditorModel(context: context, id: id) }
    public func browse(tags: [String]) -> BrowseModel { BrowseModel(context: context, request: APIBrowseRequest(tags: tags)) }

    /// Sign-out: players stop, nothing more is sent for this account.
    func close() {
        for slot in feed.slots { slot.unload() }
        stories.close()
    }
}
