import Foundation

/// Writes a line to standard error: where every error and refusal of the tool goes,
/// so standard output carries only what a command produces.
func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
