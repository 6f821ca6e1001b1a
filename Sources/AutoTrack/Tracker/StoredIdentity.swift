import Foundation

/// The identity a tracker keeps in its store, for later launches: `anonymous_id` and,
/// while logged in, `login_id` (each private, 0600). A store that cannot be written
/// keeps the identity for this run only.
enum StoredIdentity {
    static let anonymousIDFile = "anonymous_id"
    static let loginIDFile = "login_id"

    /// The stored anonymous id, or a new one stored.
    static func loadAnonymousID(in directory: URL) -> String {
        if let stored = read(anonymousIDFile, in: directory) { return stored }
        let created = UUID().uuidString
        _ = PrivateFiles.createDirectory(directory.path)
        storeAnonymousID(created, in: directory)
        return created
    }

    /// The login stored by a launch that did not log out, if any.
    static func loadLoginID(in directory: URL) -> String? {
        read(loginIDFile, in: directory)
    }

    static func storeAnonymousID(_ anonymousID: String, in directory: URL) {
        _ = PrivateFiles.write(Array(anonymousID.utf8), to: directory.appendingPathComponent(anonymousIDFile).path)
    }

    /// Stores `loginID`, or removes the stored one (`nil`).
    static func storeLoginID(_ loginID: String?, in directory: URL) {
        let path = directory.appendingPathComponent(loginIDFile).path
        if let loginID {
            _ = PrivateFiles.write(Array(loginID.utf8), to: path)
        } else {
            _ = unlink(path)
        }
    }

    private static func read(_ name: String, in directory: URL) -> String? {
        guard let bytes = PrivateFiles.read(directory.appendingPathComponent(name).path) else { return nil }
        let stored = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return stored.isEmpty ? nil : stored
    }
}
