import ReelFeatures
import SwiftUI

/// Launching, signed out, or the tabs of a signed-in session: `AppModel.phase` decides.
struct RootView: View {
    @Environment(AppModel.self) private var appModel

    var body: some View {
        Group {
            switch appModel.phase {
            case .launching:
                ProgressView("Reelhouse")
            case .signedOut, .signingIn:
                SignInView()
            case .signedIn:
                if let session = appModel.session {
                    MainTabView(session: session)
                } else {
                    SignInView()
                }
            }
        }
        .task { await appModel.launch() }
    }
}
