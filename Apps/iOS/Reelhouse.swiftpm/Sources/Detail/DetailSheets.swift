import ReelFeatures
import ReelModels
import SwiftUI

/// The owner's collections with a check on those holding the post; a new one holding it.
struct DetailCollectionsSheet: View {
    let model: DetailModel
    @Environment(\.dismiss) private var dismiss

    var body: some View {
        NavigationStack {
            List {
                Section {
                    ForEach(model.allCollections, id: \.id) { collection in
                        let member = model.memberOf.contains(collection.id)
                        Button { Task { await model.setMember(!member, of: collection.id) } } label: {
                            HStack {
                                Text(collection.name).foregroundStyle(.primary)
                                Spacer()
                                if member { Image(systemName: "checkmark").foregroundStyle(.tint) }
                            }
                        }
                    }
                }
                Section("New collection") {
                    NameField(placeholder: "Name", action: "Add") { await model.createCollection(named: $0) }
                }
                if let notice = model.notice {
                    Section { Text(notice).foregroundStyle(.red) }
                }
            }
            .navigationTitle("Collections")
            .navigationBarTitleDisplayMode(.inline)
            .toolbar { ToolbarItem(placement: .confirmationAction) { Button("Done") { dismiss() } } }
        }
        .presentationDetents([.medium, .large])
    }
}

/// The owner edits the caption (its #hashtags become tags on the server) and the tag set.
struct DetailEditSheet: View {
    let model: DetailModel
    @State private var caption = ""
    @State private var tags = ""
    @State private var saving = false
    @Environment(\.dismiss) private var dismiss

    var body: some View {
        NavigationStack {
            Form {
                Section("Caption") {
                    TextField("Caption", text: $caption, axis: .vertical).lineLimit(3...8)
                }
                Section {
                    TextField("travel, cats", text: $tags)
                        .textInputAutocapitalization(.never)
                        .autocorrectionDisabled()
                } header: {
                    Text("Tags")
                } footer: {
                    Text("Separated by commas. Leaving them as they were keeps them.")
                }
            }
            .navigationTitle("Edit post")
            .navigationBarTitleDisplayMode(.inline)
            .toolbar {
                ToolbarItem(placement: .cancellationAction) { Button("Cancel") { dismiss() } }
                ToolbarItem(placement: .confirmationAction) {
                    Button("Save") { save() }.disabled(saving)
                }
            }
            .onAppear {
                caption = model.video?.description ?? ""
                tags = originalTags
            }
        }
    }

    private var originalTags: String {
        (model.video?.tags ?? []).map(\.name).joined(separator: ", ")
    }

    private func save() {
        saving = true
        let newTags = tags == originalTags ? nil : tags.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let newCaption = caption == (model.video?.description ?? "") ? nil : caption
        Task {
            defer { saving = false }
            if newTags == nil, newCaption == nil { dismiss(); return }
            if await model.edit(description: newCaption, tags: newTags) { dismiss() }
        }
    }
}
