/// A user's own proxy paths: requests whose path Google does not use, mapped to the API they
/// forward to (`--route /geo/suggest=autocomplete`), and path prefixes a proxy puts before
/// Google's own paths (`--strip-prefix /google`: `/google/maps/api/place/autocomplete/json` is
/// read as `/maps/api/place/autocomplete/json`). `docs/formats.md` section 2 words the rules.
package struct RequestRoutes: Sendable, Equatable {
    /// Requests at `path`, or below it (`path/...`), are calls of `api`.
    package struct Route: Sendable, Equatable {
        package var path: String
        package var api: API
        package var generation: APIGeneration?
    }

    /// Why a `--route` or `--strip-prefix` value cannot be used: a full sentence.
    package struct Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
        package var description: String
    }

    package private(set) var routes: [Route] = []
    package private(set) var strippedPrefixes: [String] = []

    package init() {}

    package var isEmpty: Bool { routes.isEmpty && strippedPrefixes.isEmpty }

    /// Adds a `--route` value: `PATH=API`, or `PATH=API:new` for a Places API (New) endpoint.
    package mutating func addRoute(_ text: String) throws {
        guard let equals = text.lastIndex(of: "=") else {
            throw Error(description: "--route takes PATH=API (for example /geo/suggest=autocomplete), not `\(text)`.")
        }
        let path = try RequestRoutes.normalizedPath(String(text[..<equals]), option: "--route")
        var name = Substring(text[text.index(after: equals)...])
        var generation: APIGeneration?
        if let colon = name.lastIndex(of: ":") {
            guard let named = APIGeneration(rawValue: String(name[name.index(after: colon)...]).lowercased()) else {
                throw Error(description: "--route \(text): the API may end in :legacy or :new, nothing else.")
            }
            generation = named
            name = name[..<colon]
        }
        let (api, implied) = API.parse(String(name))
        guard !api.isOther else {
            let names = Set(API.aliases.map(\.api.name)).sorted()
            throw Error(description: "--route \(text): the API is one of \(names.joined(separator: ", ")).")
        }
        // Geocoding is one product for both generations.
        let chosen: APIGeneration? = api == .geocoding ? nil : generation ?? implied ?? .legacy
        routes.append(Route(path: path, api: api, generation: chosen))
    }

    /// Adds a `--strip-prefix` value.
    package mutating func addStrippedPrefix(_ text: String) throws {
        let prefix = try RequestRoutes.normalizedPath(text, option: "--strip-prefix")
        guard prefix != "/" else { throw Error(description: "--strip-prefix takes a path such as /google, not `/`.") }
        strippedPrefixes.append(prefix)
    }

    /// The route of a request's decoded path, the first that matches.
    func route(for path: String) -> Route? {
        routes.first { RequestRoutes.path(path, isUnder: $0.path) }
    }

    /// The path with the first matching prefix taken off, or the path as it is.
    func stripping(_ path: String) -> String {
        for prefix in strippedPrefixes where RequestRoutes.path(path, isUnder: prefix) {
            let rest = String(path.dropFirst(prefix.count))
            return rest.isEmpty ? "/" : rest
        }
        return path
    }

    /// Every path the user named: lines whose path starts with one are left to the slow path.
    package var prefixes: [String] { routes.map(\.path) + strippedPrefixes }

    /// `path` is `prefix` or lies below it.
    static func path(_ path: String, isUnder prefix: String) -> Bool {
        path == prefix || (path.hasPrefix(prefix) && path.dropFirst(prefix.count).first == "/")
    }

    /// A path with one leading `/` and none trailing.
    private static func normalizedPath(_ text: String, option: String) throws -> String {
        var path = Substring(text.trimmingSpaces())
        guard !path.isEmpty, !path.contains("?"), !path.contains("#") else {
            throw Error(description: "\(option) takes a URL path such as /geo/suggest, without a query, not `\(text)`.")
        }
        while path.hasSuffix("/"), path.count > 1 { path = path.dropLast() }
        return path.hasPrefix("/") ? String(path) : "/" + path
    }
}
