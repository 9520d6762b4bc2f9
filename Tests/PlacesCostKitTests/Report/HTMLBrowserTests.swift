import Foundation
import Testing
@testable import PlacesCostKit

/// `report.html` of the sample logs opened in headless Chromium, at a desktop and a phone width:
/// the headline shows the bill of `report.json`, every chart is drawn with a size, the page is no
/// wider than a phone, nothing is logged to the console and nothing is requested.
///
/// A harness page beside the report (it may run script; the report may not) loads the report in
/// two `<iframe>`s and writes what it measured as JSON into its own DOM, which `--dump-dom` prints.
/// Requests are read from Chromium's net log: a request a page started has that page's origin
/// as initiator; the browser's own (updates, accounts) have none. A control run on a page that
/// fetches an image, and one whose policy blocks it, proves both detectors see what they should.
///
/// Without Chromium the test notes that it was skipped, unless `PLACESCOST_BROWSER_TESTS=1`
/// (set by `.ci/run`) says it must run; `PLACESCOST_CHROMIUM` names another binary.
@Suite("report.html in headless Chromium", .serialized)
struct HTMLBrowserTests {
    static let required = ProcessInfo.processInfo.environment["PLACESCOST_BROWSER_TESTS"] == "1"
    static let widths = (desktop: 1024, phone: 390)
    /// How long one Chromium run may take before the test gives up on it.
    static let deadline: TimeInterval = 90

    /// The Chromium binary: `PLACESCOST_CHROMIUM`, or the first of the usual names on `PATH`.
    static let chromium: String? = {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["PLACESCOST_CHROMIUM"], !path.isEmpty { return path }
        let directories = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        for name in ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"] {
            for directory in directories where FileManager.default.isExecutableFile(atPath: directory + "/" + name) {
                return directory + "/" + name
            }
        }
        return nil
    }()

    /// What one Chromium run saw.
    struct Load {
        /// The harness's measurements by frame ("desktop", "phone").
        var frames: [String: [String: Any]]
        /// Lines of Chromium's log that report a console message.
        var console: [String]
        /// URLs a page asked for, from the net log.
        var requests: [String]
    }

    /// The harness: `desktop` and `phone` frames showing the given pages.
    static func harness(desktop: String, phone: String) -> String {
        """
        <!DOCTYPE html>
        <html><head><meta charset="utf-8"><title>harness</title></head><body>
        <iframe id="desktop" src="\(desktop)" style="width:\(widths.desktop)px;height:1200px;border:0"></iframe>
        <iframe id="phone" src="\(phone)" style="width:\(widths.phone)px;height:1200px;border:0"></iframe>
        <pre id="result">pending</pre>
        <script>
        const names = ['desktop', 'phone'];
        const results = {};
        function measure(name) {
          const frame = document.getElementById(name);
          const out = {};
          try {
            const doc = frame.contentDocument, win = frame.contentWindow;
            const headline = doc.querySelector('.headline');
            out.title = doc.title;
            out.h1 = doc.querySelector('h1') ? doc.querySelector('h1').textContent : null;
            out.headline = headline ? headline.innerText : null;
            out.headlineHeight = headline ? headline.getBoundingClientRect().height : 0;
            out.figures = Array.from(doc.querySelectorAll('figure')).map(figure => {
              const svg = figure.querySelector('svg');
              const box = svg ? svg.getBoundingClientRect() : {width: 0, height: 0};
              const style = svg ? win.getComputedStyle(svg) : {};
              const caption = figure.querySelector('figcaption');
              return {id: figure.id, width: box.width, height: box.height, display: style.display || null,
                      visibility: style.visibility || null, opacity: style.opacity || null,
                      bars: svg ? svg.querySelectorAll('rect.bar').length : 0, caption: caption ? caption.textContent : null};
            });
            out.resources = win.performance.getEntriesByType('resource').map(entry => entry.name);
            out.scripts = doc.querySelectorAll('script').length;
            // Tables that scroll sideways: the first header of each whose box is wider than its column.
            out.clippedTables = Array.from(doc.querySelectorAll('div.scroll')).filter(div => !div.querySelector('svg') && div.scrollWidth > div.clientWidth + 1)
              .map(div => { const th = div.querySelector('th'); return th ? th.textContent : '?'; });
            out.pageWidth = doc.documentElement.scrollWidth;
            out.viewportWidth = win.innerWidth;
          } catch (error) { out.error = String(error); }
          results[name] = out;
          if (Object.keys(results).length === names.length) document.getElementById('result').textContent = JSON.stringify(results);
        }
        for (const name of names) document.getElementById(name).addEventListener('load', () => measure(name));
        </script>
        </body></html>
        """
    }

    /// Opens `harness` (written into `directory`) in headless Chromium.
    static func load(_ harness: String, in directory: TemporaryDirectory, chromium: String) throws -> Load {
        let page = directory.write("harness.html", harness)
        let netLog = directory.path + "/net-log.json"
        let stdout = directory.write("dom.html", bytes: []), stderr = directory.write("chromium.log", bytes: [])
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chromium)
        process.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-default-apps", "--disable-sync",
            "--user-data-dir=" + directory.path + "/profile",
            // The harness reads the report's DOM; both are files.
            "--allow-file-access-from-files",
            // Any host the page might name resolves to nothing: a request is logged, never sent.
            "--host-resolver-rules=MAP * ~NOTFOUND",
            "--enable-logging=stderr", "--v=0", "--log-net-log=" + netLog,
            "--virtual-time-budget=5000", "--dump-dom", URL(fileURLWithPath: page).absoluteString,
        ]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle(forWritingAtPath: stdout)
        process.standardError = FileHandle(forWritingAtPath: stderr)
        try process.run()
        let end = Date().addingTimeInterval(deadline)
        while process.isRunning, Date() < end { Thread.sleep(forTimeInterval: 0.1) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            Issue.record("Chromium did not finish within \(Int(deadline)) s")
        }
        let dom = try String(contentsOfFile: stdout, encoding: .utf8)
        let log = (try? String(contentsOfFile: stderr, encoding: .utf8)) ?? ""
        let console = log.split(separator: "\n").map(String.init).filter { $0.contains(":CONSOLE") }

        let start = try #require(dom.range(of: "<pre id=\"result\">"), "no harness result in Chromium's DOM; its log:\n\(log.suffix(2_000))")
        let json = String(dom[start.upperBound...].prefix { $0 != "<" })
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
        let frames = try #require(try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: [String: Any]], "the harness did not finish: `\(json.prefix(200))`")

        let net = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: netLog))) as? [String: Any])
        let types = try #require((net["constants"] as? [String: Any])?["logEventTypes"] as? [String: Int])
        let startJob = try #require(types["URL_REQUEST_START_JOB"])
        let requests = (net["events"] as? [[String: Any]] ?? []).compactMap { event -> String? in
            guard event["type"] as? Int == startJob, let params = event["params"] as? [String: Any],
                  let url = params["url"] as? String, let initiator = params["initiator"] as? String,
                  initiator != "not an origin" else { return nil }
            return url
        }
        return Load(frames: frames, console: console, requests: requests)
    }

    /// The Chromium to use, or nil after noting the skip (or failing when the run requires it).
    static func browser() -> String? {
        if let chromium { return chromium }
        if required {
            Issue.record("PLACESCOST_BROWSER_TESTS=1 but no Chromium on PATH: install it (apt-get install chromium) or set PLACESCOST_CHROMIUM.")
        } else {
            print("HTMLBrowserTests skipped: no Chromium on PATH (install chromium and run PLACESCOST_BROWSER_TESTS=1 swift test --filter HTMLBrowser).")
        }
        return nil
    }

    @Test("The sample report shows its headline and every chart at desktop and phone width, every table whole at desktop width, logs nothing and requests nothing", arguments: [
        [], ["--scale", "59"],
    ])
    func sampleReport(arguments: [String]) throws {
        guard let chromium = Self.browser() else { return }
        let directory = TemporaryDirectory()
        let run = runCLI(["analyze", "--out", directory.path, "--quiet"] + arguments, workingDirectory: packageRoot)
        #expect(run.code == .success, "\(run.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory.path + "/report.json"))) as? [String: Any])
        let headline = try #require(json["headline"] as? [String: Any])
        let bill = Money.usd(try #require(headline["current_cost_usd"] as? Double) / Double(try #require(headline["months"] as? Int))) + " a month"

        let load = try Self.load(Self.harness(desktop: "report.html", phone: "report.html"), in: directory, chromium: chromium)
        #expect(load.console.isEmpty, "console messages: \(load.console)")
        #expect(load.requests.isEmpty, "requests: \(load.requests)")
        for name in ["desktop", "phone"] {
            let frame = try #require(load.frames[name], "\(name) frame not measured")
            #expect(frame["error"] == nil, "\(name): \(frame["error"] ?? "")")
            #expect(frame["h1"] as? String == "Places Autocomplete cost report", "\(name)")
            let text = try #require(frame["headline"] as? String, "\(name): no headline")
            #expect(text.contains("Estimated bill now") && text.contains(bill) && text.contains("Recommended"), "\(name): \(text)")
            #expect((frame["headlineHeight"] as? Double ?? 0) > 0, "\(name): headline not drawn")
            #expect((frame["resources"] as? [String])?.isEmpty == true, "\(name) loaded \(frame["resources"] ?? "")")
            #expect(frame["scripts"] as? Int == 0)
            #expect((frame["pageWidth"] as? Int ?? .max) <= (frame["viewportWidth"] as? Int ?? 0), "\(name): the page is wider than the screen: \(frame["pageWidth"] ?? "") > \(frame["viewportWidth"] ?? "")")
            if name == "desktop" {
                // On a desktop every table fits the column: none hides a column behind a scroll bar.
                #expect((frame["clippedTables"] as? [String]) == [], "desktop: tables wider than the column: \(frame["clippedTables"] ?? "")")
            }
            let figures = try #require(frame["figures"] as? [[String: Any]])
            #expect(figures.map { $0["id"] as? String ?? "" } == ["chart-strategy-costs", "chart-requests-per-search", "chart-chars-at-selection"], "\(name)")
            for figure in figures {
                let id = figure["id"] as? String ?? ""
                #expect((figure["width"] as? Double ?? 0) >= 300 && (figure["height"] as? Double ?? 0) >= 150, "\(name) \(id): \(figure)")
                #expect(figure["display"] as? String != "none" && figure["visibility"] as? String == "visible" && figure["opacity"] as? String == "1", "\(name) \(id): \(figure)")
                #expect((figure["bars"] as? Int ?? 0) > 0, "\(name) \(id) draws no bar")
                #expect(!(figure["caption"] as? String ?? "").isEmpty, "\(name) \(id) has no caption")
            }
        }
    }

    @Test("Control: the checks see a page that fetches an image and one whose policy blocks it")
    func control() throws {
        guard let chromium = Self.browser() else { return }
        let directory = TemporaryDirectory()
        directory.write("leaky.html", "<!DOCTYPE html><html><body><h1>x</h1><img src=\"http://placescost.invalid/leak.png\"></body></html>")
        directory.write("blocked.html", "<!DOCTYPE html><html><head><meta http-equiv=\"Content-Security-Policy\" content=\"\(HTMLReportRenderer.contentSecurityPolicy)\"></head><body><h1>x</h1><img src=\"https://placescost.invalid/blocked.png\"></body></html>")
        let load = try Self.load(Self.harness(desktop: "leaky.html", phone: "blocked.html"), in: directory, chromium: chromium)
        #expect(load.requests.contains("http://placescost.invalid/leak.png"), "the net log check missed a request: \(load.requests)")
        #expect(!load.requests.contains { $0.contains("blocked.png") }, "the report's policy let a request out")
        #expect(load.console.contains { $0.contains("blocked.png") }, "the console check missed the policy's report: \(load.console)")
        #expect((load.frames["desktop"]?["resources"] as? [String])?.isEmpty == false)
    }
}
