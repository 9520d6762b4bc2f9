import Foundation

extension JSONSerialization {
    /// Where Foundation stopped reading a text as JSON, or which number no `Double` holds, as
    /// it says it ("Invalid value around character 1703", "Unexpected end of file during JSON
    /// parse"), without its period; nil when the error does not say.
    ///
    /// Foundation's message names a position, never the text there, so it quotes nothing of the
    /// file: it may follow a file's name in an error.
    static func failureReason(_ error: Error) -> String? {
        guard let reason = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String, !reason.isEmpty else { return nil }
        return reason.hasSuffix(".") ? String(reason.dropLast()) : reason
    }
}
