import ReelFeatures
import SwiftUI

/// The offline strip: what waits for the connection, and Retry.
struct OfflineBanner: View {
    var waiting: Int
    var retry: () async -> Void

    var body: some View {
        HStack(spacing: 12) {
            Image(systemName: "wifi.slash")
            Text(waiting > 0 ? "Offline · \(waiting) change\(waiting == 1 ? "" : "s") waiting" : "You're offline")
                .font(.footnote.weight(.semibold))
            Spacer()
            Button("Retry") { Task { await retry() } }
                .font(.footnote.weight(.bold))
        }
        .padding(.horizontal, 14).padding(.vertical, 10)
        .background(.ultraThinMaterial, in: Capsule())
        .padding(.horizontal)
    }
}

/// A one-line message that fades after a few seconds, clearing the model's `notice`.
struct NoticeToast: ViewModifier {
    @Binding var notice: String?

    func body(content: Content) -> some View {
        content.overlay(alignment: .bottom) {
            if let notice {
                Text(notice)
                    .font(.footnote)
                    .padding(.horizontal, 14).padding(.vertical, 10)
                    .background(.regularMaterial, in: Capsule())
                    .padding(.bottom, 24)
                    .transition(.move(edge: .bottom).combined(with: .opacity))
                    .task(id: notice) {
                        try? await Task.sleep(for: .seconds(3))
                        withAnimation { self.notice = nil }
                    }
            }
        }
    }
}

extension View {
    func notice(_ notice: Binding<String?>) -> some View { modifier(NoticeToast(notice: notice)) }
}

/// A screen that could not load: what went wrong and a way to try again.
struct ErrorState: View {
    var error: ScreenError
    var retry: () async -> Void

    var body: some View {
        ContentUnavailableView {
            Label(error.isOffline ? "Offline" : "Couldn't load", systemImage: error.isOffline ? "wifi.slash" : "exclamationmark.triangle")
        } description: {
            Text(error.message)
        } actions: {
            Button("Try again") { Task { await retry() } }.buttonStyle(.borderedProminent)
        }
    }
}
