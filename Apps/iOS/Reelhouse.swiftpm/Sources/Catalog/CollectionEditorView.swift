import ReelFeatures
import ReelModels
import SwiftUI

/// Editing a collection (owners): rename, drag to reorder, swipe to remove; Save sends it all
/// in one request; Delete removes the collection.
struct CollectionEditorView: View {
    @State private var model: CollectionEditorModel
    @State private var confirmsDelete = false
    @Environment(\.dismiss) private var dismiss

    init(model: @autoclosure () -> CollectionEditorModel) {
        _model = State(wrappedValue: model())
    }

    var body: some View {
        List {
            Section("Name") {
                TextField("Collection name", text: $model.name)
            }
            Section("\(model.items.count) posts") {
                ForEach(model.items, id: \.id) { item in
                    HStack(spacing: 12) {
                        PosterCell(item: item).frame(width: 44).clipShape(RoundedRectangle(cornerRadius: 4))
                        Text(item.description ?? "Post \(item.id)").lineLimit(2)
                    }
                }
                .onMove { model.move(fromOffsets: $0, toOffset: $1) }
                .onDelete { offsets in
                    for id in offsets.map({ model.items[$0].id }) { model.remove(id) }
                }
            }
            if let error = model.error {
                Section { Text(error.message).foregroundStyle(.red) }
            }
            Section {
                Button("Delete collection", role: .destructive) { confirmsDelete = true }
            }
        }
        .overlay { if model.isLoading, model.saved == nil { ProgressView() } }
        .navigationTitle("Edit collection")
        .navigationBarTitleDisplayMode(.inline)
        .environment(\.editMode, .constant(.active))
        .toolbar {
            ToolbarItem(placement: .cancellationAction) {
                Button("Revert") { Task { await model.discardChanges() } }.disabled(!model.hasChanges)
            }
            ToolbarItem(placement: .confirmationAction) {
                Button("Save") { Task { if await model.save() { dismiss() } } }.disabled(!model.hasChanges)
            }
        }
        .confirmationDialog("Delete “\(model.name)”? The posts stay in the library.", isPresented: $confirmsDelete, titleVisibility: .visible) {
            Button("Delete", role: .destructive) { Task { _ = await model.delete() } }
        }
        .onChange(of: model.isDeleted) { _, deleted in if deleted { dismiss() } }
        .task { if model.saved == nil { await model.load() } }
    }
}
