import SwiftUI

/// A poster or photo from the server, by its path in the models (`/img/…`), filling its frame.
/// Loaded by SwiftUI's `AsyncImage`; `onShown` runs once the image is on screen (stories start
/// an item's time then).
struct RemoteImage: View {
    let path: String?
    var contentMode: ContentMode = .fill
    var onShown: (() -> Void)?
    var onFailed: (() -> Void)?
    @Environment(\.serverURL) private var server

    var body: some View {
        AsyncImage(url: URL.media(path, base: server), transaction: Transaction(animation: .easeOut(duration: 0.15))) { phase in
            switch phase {
            case .success(let image):
                image.resizable().aspectRatio(contentMode: contentMode).onAppear { onShown?() }
            case .failure:
                Color.secondary.opacity(0.2)
                    .overlay { Image(systemName: "photo").foregroundStyle(.secondary) }
                    .onAppear { onFailed?() }
            default:
                Color.secondary.opacity(0.15)
            }
        }
        .clipped()
    }
}
