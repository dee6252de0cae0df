import Foundation
import ReelFeatures
import ReelKit
import ReelKitTestDoubles
import ReelModels
import ReelServer
import ReelStore
import ReelStoreSQLite
import ReelTestFiles
import ReelTestSupport
import Testing

/// Editing a collection: changes stay local until saved, then go in one request.
@Suite(.serialized) @MainActor struct CollectionEditorModelTests {
    @Test func reorderRenameAndRemoveAreSavedTogether() async throws {
        try await withHarness(videos: 4) { harness in
            let ids = harness.server.videoIDs
            let collection = try await harness.client().createCollection(name: "Trip", postIDs: [ids[0], ids[1], ids[2]])
            let model = CollectionEditorModel(context: try await harness.context(), id: collection.id)
            await model.load()
            #expect(model.name == "Trip" && model.items.map(\.id) == [ids[0], ids[1], ids[2]] && !model.hasChanges)

            model.moveDown(ids[0])
            model.moveUp(ids[2])
            model.moveUp(ids[2])
            #expect(model.items.map(\.id) == [ids[2], ids[1], ids[0]] && model.hasChanges)
            model.remove(ids[1])
            model.name = " Road trip "
            let before = try await harness.client().collection(id: collection.id)
            #expect(before.items.map(\.id) == [ids[0], ids[1], ids[2]], "nothing was sent before Save")

            #expect(await model.save())
            #expect(!model.hasChanges && model.name == "Road trip")
            let after = try await harness.client().collection(id: collection.id)
            #expect(after.collection.name == "Road trip" && after.items.map(\.id) == [ids[2], ids[0]])
        }
    }

    @Test func anEmptyNameIsRefusedAndDeletingEndsIt() async throws {
        try await withHarness(videos: 2) { harness in
            let ids = harness.server.videoIDs
            let collection = try await harness.client().createCollection(name: "Mine", postIDs: ids)
            let model = CollectionEditorModel(context: try await harness.context(), id: collection.id)
            await model.load()
            model.name = "   "
            #expect(await model.save() == false && model.error?.message == "A collection needs a name.")
            await model.discardChanges()
            #expect(model.name == "Mine" && !model.hasChanges)

            #expect(await model.delete())
            #expect(model.isDeleted)
            await #expect(throws: ReelAPIError.self) { try await harness.client().collection(id: collection.id) }
            let gone = CollectionEditorModel(context: try await harness.context(), id: collection.id)
            await gone.load()
            #expect(gone.isDeleted && gone.error?.kind == .notFound)
        }
    }

    @Test func aMemberCannotChangeAnOwnersCollection() async throws {
        try await withHarness(videos: 2) { harness in
            let collection = try await harness.client().createCollection(name: "Owner's", postIDs: harness.server.videoIDs)
            let mia = try await harness.member()
            let model = CollectionEditorModel(context: try await harness.context(await mia.credentials), id: collection.id)
            await model.load()
            model.moveDown(harness.server.videoIDs[0])
            #expect(await model.save() == false && model.error?.kind == .notAllowed)
        }
    }
}
