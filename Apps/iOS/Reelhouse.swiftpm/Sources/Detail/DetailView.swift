import ReelFeatures
import ReelModels
import SwiftUI

/// One post's page: the player (resuming where the person stopped), heart and stars, tags,
/// its collections, the download, and for owners edit and delete.
struct DetailView: View {
    @State private var model: DetailModel
    @State private var showsCollections = false
    @State private var showsEditor = false
    @State private var confirmsDelete = false
    @State private var downloaded: URL?
    @State private var downloading = false
    @Environment(\.dismiss) private var dismiss

    init(model: @autoclosure () -> DetailModel) {
        _model = State(wrappedValue: model())
    }

    var body: some View {
        ScrollView {
            switch model.content {
            case .idle, .loading:
                ProgressView().padding(.top, 120)
            case .failed(let error):
                ErrorState(error: error) { await model.load() }
            case .loaded(let detail):
                VStack(alignment: .leading, spacing: 14) {
                    DetailPlayer(model: model, video: detail.video)
                    actions
                    info(detail)
                }
            }
        }
        .navigationTitle(model.title)
        .navigationBarTitleDisplayMode(.inline)
        .toolbar { toolbar }
        .notice($model.notice)
        .sheet(isPresented: $showsCollections) { DetailCollectionsSheet(model: model) }
        .sheet(isPresented: $showsEditor) { DetailEditSheet(model: model) }
        .confirmationDialog("Delete this post for everyone?", isPresented: $confirmsDelete, titleVisibility: .visible) {
            Button("Delete", role: .destructive) { Task { _ = await model.delete() } }
        }
        .onChange(of: model.isDeleted) { _, deleted in if deleted { dismiss() } }
        .task { if model.content.value == nil { await model.load() } }
    }

    private var actions: some View {
        HStack(spacing: 20) {
            Button { Task { await model.toggleLike() } } label: {
                Image(systemName: model.postState.isFavorited ? "heart.fill" : "heart")
                    .foregroundStyle(model.postState.isFavorited ? Color.pink : Color.primary)
            }
            .accessibilityLabel(model.postState.isFavorited ? "Remove from favorites" : "Add to favorites")
            HStack(spacing: 4) {
                ForEach(1...5, id: \.self) { stars in
                    Button { Task { await model.rate(model.postState.rating == stars ? 0 : stars) } } label: {
                        Image(systemName: stars <= model.postState.rating ? "star.fill" : "star")
                    }
                    .accessibilityLabel("\(stars) stars")
                }
            }
            .foregroundStyle(.yellow)
            Spacer()
            if let downloaded {
                ShareLink(item: downloaded) { Image(systemName: "square.and.arrow.up") }
            } else if model.downloadURL != nil {
                Button { download() } label: {
                    if downloading { ProgressView() } else { Image(systemName: "arrow.down.circle") }
                }
                .disabled(downloading)
                .accessibilityLabel("Download")
            }
        }
        .font(.title2)
        .padding(.horizontal)
    }

    private func info(_ detail: APIVideoDetail) -> some View {
        VStack(alignment: .leading, spacing: 8) {
            if let name = detail.video.uploader ?? detail.video.username { Text("@\(name)").font(.subheadline.bold()) }
            if let text = detail.video.description, !text.isEmpty { Text(text) }
            if !detail.video.tags.isEmpty {
                ScrollView(.horizontal) {
                    HStack {
                        ForEach(detail.video.tags, id: \.id) { tag in
                            NavigationLink(value: AppRoute.browse(tags: [tag.name])) { Text("#\(tag.name)") }
                                .buttonStyle(.bordered).controlSize(.small)
                        }
                    }
                }
                .scrollIndicators(.hidden)
            }
            if !detail.collections.isEmpty {
                Text("In " + detail.collections.map(\.name).joined(separator: ", ")).font(.footnote).foregroundStyle(.secondary)
            }
        }
        .padding(.horizontal)
    }

    @ToolbarContentBuilder
    private var toolbar: some ToolbarContent {
        ToolbarItem(placement: .topBarTrailing) {
            Menu {
                if model.canEdit {
                    Button { showsCollections = true } label: { Label("Collections", systemImage: "rectangle.stack.badge.plus") }
                    Button { showsEditor = true } label: { Label("Edit caption and tags", systemImage: "pencil") }
                    Button(role: .destructive) { confirmsDelete = true } label: { Label("Delete post", systemImage: "trash") }
                }
            } label: { Image(systemName: "ellipsis.circle") }
            .disabled(!model.canEdit)
        }
    }

    /// The download's bytes (the model fetches them and counts the download) written to a
    /// temporary file named after the post, then offered to the share sheet (Save to Files,
    /// Save Video, AirDrop).
    private func download() {
        downloading = true
        Task {
            defer { downloading = false }
            guard let data = await model.download() else { return }
            let file = URL.temporaryDirectory.appending(path: Self.fileName(title: model.title, id: model.id, url: model.downloadURL))
            do {
                try data.write(to: file, options: .atomic)
                downloaded = file
            } catch {
                model.notice = "Couldn't save the file: \(error.localizedDescription)"
            }
        }
    }

    /// The post's title as a file name (the server's extension), safe for Files.
    static func fileName(title: String, id: Int64, url: URL?) -> String {
        let ext = url?.pathExtension.isEmpty == false ? url!.pathExtension : "mp4"
        let cleaned = title.map { $0.isLetter || $0.isNumber || $0 == " " || $0 == "-" ? $0 : "_" }
        let stem = String(cleaned.prefix(80)).trimmingCharacters(in: .whitespaces)
        return (stem.isEmpty ? "reelhouse-\(id)" : stem) + "." + ext
    }
}
