import PhotosUI
import ReelFeatures
import SwiftUI

/// Create: pick a video or photo, write a caption and tags, post it or share it to your story;
/// then the upload's progress, the server's processing, and the published post. An upload cut
/// off earlier can resume.
struct CreateView: View {
    let create: CreateModel
    @State private var selection: PhotosPickerItem?
    @State private var importing = false

    var body: some View {
        @Bindable var create = create
        Form {
            if create.canResume, !isBusy {
                Section {
                    Text("An upload was interrupted.")
                    HStack {
                        Button("Resume") { Task { await create.resume() } }
                        Spacer()
                        Button("Discard", role: .destructive) { Task { await create.discardPending() } }
                    }
                    .buttonStyle(.borderless)
                }
            }
            Section {
                PhotosPicker(selection: $selection, matching: .any(of: [.videos, .images]), preferredItemEncoding: .current) {
                    Label(create.file == nil ? "Choose a video or photo" : "Choose another", systemImage: "photo.on.rectangle")
                }
                .disabled(isBusy)
                if importing { ProgressView("Copying from your library…") }
                if let file = create.file {
                    LabeledContent(file.pathExtension.uppercased(), value: ByteCountFormatter.string(fromByteCount: create.fileSize, countStyle: .file))
                }
            }
            Section {
                TextField("Write a caption… #tags work too", text: $create.caption, axis: .vertical).lineLimit(2...6)
                TextField("Tags, separated by commas", text: $create.tags)
                    .textInputAutocapitalization(.never)
                    .autocorrectionDisabled()
                Toggle("Share to your story", isOn: $create.asStory)
            }
            .disabled(isBusy)
            Section { CreateStageView(create: create) }
        }
        .navigationTitle("Create")
        .onChange(of: selection) { _, item in
            guard let item else { return }
            importing = true
            Task {
                defer { importing = false; selection = nil }
                if let picked = try? await item.loadTransferable(type: PickedMedia.self) {
                    await create.choose(file: picked.url)
                }
            }
        }
    }

    private var isBusy: Bool {
        switch create.stage {
        case .uploading, .processing: true
        default: importing
        }
    }
}

/// Where the post is: ready to send, uploading, processing, published, or failed.
struct CreateStageView: View {
    let create: CreateModel
    @Environment(AppModel.self) private var appModel

    var body: some View {
        switch create.stage {
        case .choosing:
            Button(create.asStory ? "Share to story" : "Post") { Task { await create.upload() } }
                .disabled(create.file == nil)
        case .uploading(let sent, let total):
            ProgressView(value: create.fraction) {
                Text("Uploading \(ByteCountFormatter.string(fromByteCount: sent, countStyle: .file)) of \(ByteCountFormatter.string(fromByteCount: total, countStyle: .file))")
            }
        case .processing(_, let jobState, _):
            ProgressView(value: create.fraction) { Text("Processing (\(jobState))") }
        case .published(let postID):
            Label(create.asStory ? "Shared to your story" : "Published", systemImage: "checkmark.circle.fill").foregroundStyle(.green)
            if !create.asStory {
                Button("Open the post") { appModel.show(.post(postID)); create.reset() }
            }
            Button("New post") { create.reset() }
        case .failed(let error):
            Text(error.message).foregroundStyle(.red)
            if create.canResume {
                Button("Resume upload") { Task { await create.resume() } }
            } else if create.file != nil {
                Button("Try again") { Task { await create.upload() } }
            }
        }
    }
}
