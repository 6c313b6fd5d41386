"""Drives the web console of two running `vod serve` processes in Debian's Chromium, headless, as a person would,
in one browser session, and prints what it saw as JSON for `Tests/VODServerTests/Console/ConsoleTests.swift` to
judge. It asserts nothing itself: each phase records what the page showed, and a phase that fails records why
and lets the next one run.

Usage: console.py CONFIG_JSON, with `open_url` (a server without write protection, with workers), `key_url` (a
server with `--api-key-file` and `--player-script-url http://player.test/hls.js`), `key` (its key), `clip` (a
small video) and `tracks` (a small video with two audio tracks, eng and fra).
"""
import asyncio
import json
import os
import sys
import traceback

from axe_playwright_python.async_playwright import Axe
from playwright.async_api import Error as PlaywrightError, async_playwright

CHROMIUM = os.environ.get("VOD_CHROMIUM", "/usr/lib/chromium/chromium")
# Chromium implements HTMLMediaElement.audioTracks behind this feature (Safari has it on); its native HLS player
# fills it from the master's audio renditions.
ARGUMENTS = ["--no-sandbox", "--autoplay-policy=no-user-gesture-required", "--enable-blink-features=AudioVideoTracks"]
TIMEOUT = 90_000
# The upload bandwidth of the upload phase: the two fixtures (about 400 kB each) take a second or two.
UPLOAD_BYTES_PER_SECOND = 500_000
# The upload bandwidth while an upload is cut by the network and by a reload: the clip takes about three seconds.
RESUME_BYTES_PER_SECOND = 150_000

# Reported to Python from every page: a Content-Security-Policy violation, as the browser saw it.
REPORT_VIOLATIONS = """document.addEventListener('securitypolicyviolation', (event) => window.vodReportViolation({
  directive: event.violatedDirective, blocked: event.blockedURI, source: event.sourceFile, line: event.lineNumber }));"""

# A browser without native HLS, as Firefox is.
NO_NATIVE_HLS = """(() => { const original = HTMLMediaElement.prototype.canPlayType;
  HTMLMediaElement.prototype.canPlayType = function (type) { return /mpegurl/i.test(type) ? '' : original.call(this, type); }; })();"""

# Stands in for the operator's hls.js: the Hls API the console uses, recording what it was given, and handing
# the stream to the element (which this Chromium plays).
PLAYER_SCRIPT = """window.Hls = class {
  static isSupported() { return true; }
  static get Events() { return { MANIFEST_PARSED: 'hlsManifestParsed' }; }
  constructor(config) { this.levels = []; this.audioTracks = []; this.subtitleTracks = []; window.vodPlayerScript = { config }; }
  loadSource(url) { this.url = url; window.vodPlayerScript.source = url; }
  attachMedia(media) { media.src = this.url; window.vodPlayerScript.attached = true; }
  on() {}
  destroy() {}
};"""

# Records, from the library page, each status each card shows and each value each upload bar takes.
WATCH_LIBRARY = """(() => {
  window.vodNotReloaded = true;
  window.vodStatuses = {};
  window.vodUploadValues = {};
  const record = (card) => {
    const title = card.querySelector('.card-title a').textContent;
    const status = card.querySelector('.status').textContent;
    const seen = (window.vodStatuses[title] ||= []);
    if (seen[seen.length - 1] !== status) seen.push(status);
  };
  new MutationObserver((records) => {
    for (const record_ of records) {
      for (const node of record_.addedNodes) {
        const card = (node.nodeType === 1 ? node : node.parentElement)?.closest('.card');
        if (card) record(card);
      }
    }
  }).observe(document.getElementById('library-list'), { subtree: true, childList: true });
  window.vodUploadNumbers = [];
  new MutationObserver((records) => {
    for (const record_ of records) {
      const element = record_.target.nodeType === 1 ? record_.target : record_.target.parentElement;
      const row = element.closest('.upload');
      if (!row) continue;
      if (record_.type === 'attributes') {
        (window.vodUploadValues[row.querySelector('.upload-name').textContent] ||= []).push(Number(element.value));
      } else if (element.classList.contains('upload-numbers')) {
        window.vodUploadNumbers.push(element.textContent);
      }
    }
  }).observe(document.getElementById('uploads'), { subtree: true, childList: true, attributes: true, attributeFilter: ['value'] });
})()"""

VIDEO_STATE = """(() => { const v = document.getElementById('video'); return {
  currentTime: v.currentTime, videoWidth: v.videoWidth, videoHeight: v.videoHeight, paused: v.paused,
  currentSrc: v.currentSrc, error: v.error ? `${v.error.code}: ${v.error.message}` : null }; })()"""

PLAY = "() => { const v = document.getElementById('video'); v.muted = true; v.play().catch(() => {}); }"

CARD_STATUS = """([title, status]) => [...document.querySelectorAll('.card')].some(
  (card) => card.querySelector('.card-title a').textContent === title && card.dataset.status === status)"""


async def holds(page, predicate, arg):
    """Whether `predicate` holds in the page; false while a navigation replaces the page it ran in, or while the
    console is still putting up the page whose elements it reads (one it reads is not there yet)."""
    try:
        return await page.evaluate(predicate, arg)
    except PlaywrightError as error:
        if "Execution context was destroyed" in error.message or "Cannot read properties of null" in error.message:
            return False
        raise


async def wait_until(page, predicate, arg=None, timeout=TIMEOUT):
    """Polls `predicate` in the page until it holds. Playwright's wait_for_function compiles its predicate with
    `new Function`, which the console's Content-Security-Policy rightly refuses; `evaluate` is not subject to it."""
    deadline = asyncio.get_running_loop().time() + timeout / 1000
    while not await holds(page, predicate, arg):
        if asyncio.get_running_loop().time() > deadline:
            raise TimeoutError(f"timed out after {timeout / 1000} s waiting until {predicate}")
        await asyncio.sleep(0.05)


class Session:
    def __init__(self, config):
        self.config = config
        self.report = {"errors": [], "csp_violations": [], "console_errors": [], "page_errors": [], "headers": {}}

    async def phase(self, name, body):
        try:
            await body()
        except Exception as error:  # noqa: BLE001 — the report carries every failure to the Swift test
            self.report["errors"].append(f"{name}: {error!r}\n{traceback.format_exc(limit=3)}")

    async def context(self, browser, **options):
        context = await browser.new_context(**options)
        await context.expose_function("vodReportViolation", lambda v: self.report["csp_violations"].append(
            f"{v['directive']} blocked {v['blocked']} at {v['source']}:{v['line']}"))
        await context.add_init_script(REPORT_VIOLATIONS)
        context.on("console", lambda message: message.type == "error" and self.report["console_errors"].append(message.text))
        context.on("weberror", lambda error: self.report["page_errors"].append(str(error.error)))
        return context

    def headers(self, name, response):
        self.report["headers"][name] = {
            "status": response.status,
            "content_type": response.headers.get("content-type"),
            "csp": response.headers.get("content-security-policy"),
            "nosniff": response.headers.get("x-content-type-options"),
            "cache_control": response.headers.get("cache-control"),
            "etag": response.headers.get("etag"),
        }

    async def axe(self, page, name):
        results = await Axe().run(page)
        self.report.setdefault("axe", {})[name] = [
            {"id": v["id"], "impact": v["impact"] or "", "nodes": [json.dumps(n["target"]) for n in v["nodes"]]}
            for v in results.response["violations"]]

    async def run(self):
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=ARGUMENTS)
            try:
                await self.open_server(browser)
                await self.key_server(browser)
            finally:
                await browser.close()
        return self.report

    # The server without write protection: upload, watch, play, switch audio, delete, accessibility, phone width.
    async def open_server(self, browser):
        url = self.config["open_url"]
        context = await self.context(browser, viewport={"width": 1280, "height": 800})
        await context.grant_permissions(["clipboard-read", "clipboard-write"], origin=url)
        page = await context.new_page()
        page.set_default_timeout(TIMEOUT)

        async def load():
            self.headers("open-index", await page.goto(f"{url}/"))
            self.headers("open-script", await page.request.get(f"{url}/console/app.js"))
            await page.wait_for_selector("#library-list", state="attached")
            await wait_until(page, "document.getElementById('live-state')?.textContent === 'Live'")
            await page.evaluate(WATCH_LIBRARY)
        await self.phase("load", load)

        async def upload():
            # Slow enough for the bars to be seen moving, with a rate and a time left.
            network = await context.new_cdp_session(page)
            await network.send("Network.enable")
            await network.send("Network.emulateNetworkConditions", {
                "offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": UPLOAD_BYTES_PER_SECOND})
            await page.set_input_files("#upload-files", [self.config["clip"], self.config["tracks"]])
            await wait_until(page, "document.querySelectorAll('.upload .upload-open:not([hidden])').length === 2")
            await network.send("Network.emulateNetworkConditions", {
                "offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
            rows = await page.eval_on_selector_all(".upload", """rows => rows.map(row => ({
              name: row.querySelector('.upload-name').textContent, state: row.querySelector('.upload-state').textContent,
              value: row.querySelector('.upload-progress').value, numbers: row.querySelector('.upload-numbers').textContent,
              open: row.querySelector('.upload-open').getAttribute('href') }))""")
            self.report["uploads"] = {
                "rows": rows, "values": await page.evaluate("window.vodUploadValues"),
                "numbers": await page.evaluate("window.vodUploadNumbers")}
        await self.phase("upload", upload)

        async def transcode():
            for title in ["clip", "tracks"]:
                await wait_until(page, CARD_STATUS, arg=[title, "ready"])
            self.report["statuses"] = await page.evaluate("window.vodStatuses")
            self.report["not_reloaded"] = await page.evaluate("window.vodNotReloaded === true")
            self.report["cards"] = await page.eval_on_selector_all(".card", """cards => cards.map(card => ({
              title: card.querySelector('.card-title a').textContent, rungs: card.querySelector('.rungs').textContent,
              duration: card.querySelector('.duration').textContent, poster: !card.querySelector('.poster img').hidden }))""")
            await page.fill("#filter-search", "trac")
            self.report["search_tra"] = await page.eval_on_selector_all(".card-title a", "links => links.map(link => link.textContent)")
            await page.fill("#filter-search", "")
            await page.select_option("#filter-status", "failed")
            self.report["filter_failed"] = await page.eval_on_selector_all(".card", "cards => cards.length")
            await page.select_option("#filter-status", "")
            await self.axe(page, "library")
        await self.phase("transcode", transcode)

        async def play():
            await page.get_by_role("link", name="clip", exact=True).click()
            await wait_until(page, "document.getElementById('video').currentSrc !== ''")
            await page.evaluate(PLAY)
            await wait_until(page, "document.getElementById('video').currentTime >= 3 || document.getElementById('video').error")
            playback = {"video": await page.evaluate(VIDEO_STATE)}
            playback["quality"] = await page.eval_on_selector_all("#quality option", "options => options.map(o => o.textContent)")
            await self.axe(page, "player")
            media = await (await page.request.get(f"{url}/api/media/{page.url.rsplit('/', 1)[1]}")).json()
            smallest = min(media["variants"], key=lambda variant: variant["width"])
            await page.select_option("#quality", index=media["variants"].index(smallest) + 1)
            await wait_until(page, "([url, width]) => { const v = document.getElementById('video'); "
                                         "return v.currentSrc === url && v.videoWidth === width; }", arg=[smallest["playlist_url"], smallest["width"]])
            playback["after_quality"] = await page.evaluate(VIDEO_STATE)
            playback["variant"] = smallest
            playback["stream_url"] = media["stream_url"]
            await page.click("text=Copy URL")
            playback["copied"] = await page.evaluate("navigator.clipboard.readText()")
            playback["embed"] = await page.input_value("#embed-code")
            await page.fill("#edit-title", "clip, renamed")
            await page.click("#edit-form button[type=submit]")
            await wait_until(page, "document.getElementById('player-heading')?.textContent === 'clip, renamed'")
            playback["renamed"] = (await (await page.request.get(f"{url}/api/media/{media['id']}")).json())["title"]
            self.report["playback"] = playback
        await self.phase("play", play)

        async def audio():
            await page.goto(f"{url}/#/")
            await page.get_by_role("link", name="tracks", exact=True).click()
            await wait_until(page, "document.getElementById('video').currentSrc !== ''")
            await page.evaluate(PLAY)
            await wait_until(page, "document.getElementById('video').currentTime >= 1 && !document.getElementById('audio-field').hidden")
            state = {"options": await page.eval_on_selector_all("#audio-track option", "options => options.map(o => o.textContent)")}
            state["before"] = await page.evaluate("Array.from(document.getElementById('video').audioTracks, t => t.enabled)")
            switched_at = await page.evaluate("document.getElementById('video').currentTime")
            await page.select_option("#audio-track", index=1)
            await wait_until(page, "(t) => { const v = document.getElementById('video'); "
                                         "return v.audioTracks[1].enabled && v.currentTime > t + 0.5; }", arg=switched_at)
            state["after"] = await page.evaluate("Array.from(document.getElementById('video').audioTracks, t => t.enabled)")
            state["selected"] = await page.eval_on_selector("#audio-track", "select => select.selectedOptions[0].textContent")
            state["playback"] = await page.evaluate(VIDEO_STATE)
            state["quality_offered"] = not await page.evaluate("document.getElementById('quality-field').hidden")
            self.report["audio"] = state
        await self.phase("audio", audio)

        async def delete():
            media_id = page.url.rsplit("/", 1)[1]
            await page.click("#delete-button")
            await page.wait_for_selector("#confirm-dialog[open]")
            await page.click("#confirm-button")
            await wait_until(page, "location.hash === '#/'")
            await wait_until(page, """() => document.querySelectorAll('.card').length > 0 &&
              ![...document.querySelectorAll('.card-title a')].some(a => a.textContent === 'tracks')""")
            self.report["deleted"] = {
                "titles": await page.eval_on_selector_all(".card-title a", "links => links.map(link => link.textContent)"),
                "api_status": (await page.request.get(f"{url}/api/media/{media_id}")).status,
            }
        await self.phase("delete", delete)

        async def phone():
            # A phone in dark mode: the dark colours get their own contrast check.
            phone_context = await self.context(
                browser, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, color_scheme="dark")
            phone_page = await phone_context.new_page()
            phone_page.set_default_timeout(TIMEOUT)
            await phone_page.goto(f"{url}/")
            await phone_page.wait_for_selector(".card")
            width = "({scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth})"
            self.report["phone"] = {"library": await phone_page.evaluate(width)}
            await self.axe(phone_page, "phone")
            await phone_page.click(".card-title a")
            await phone_page.wait_for_selector("#video")
            await wait_until(phone_page, "(document.getElementById('stream-url')?.value ?? '') !== ''")
            self.report["phone"]["player"] = await phone_page.evaluate(width)
            await phone_context.close()
        await self.phase("phone", phone)

        async def no_native_hls():
            bare = await self.context(browser)
            await bare.add_init_script(NO_NATIVE_HLS)
            bare_page = await bare.new_page()
            bare_page.set_default_timeout(TIMEOUT)
            await bare_page.goto(f"{url}/")
            await bare_page.click(".card-title a")
            await bare_page.wait_for_selector("#player-note:not([hidden])")
            self.report["no_native_hls"] = {
                "note": await bare_page.text_content("#player-note"),
                "link": await bare_page.get_attribute("#player-note a", "href"),
                "stream_url": await bare_page.input_value("#stream-url"),
            }
            await bare.close()
        await self.phase("no native HLS", no_native_hls)

        async def resume():
            network = await context.new_cdp_session(page)
            await network.send("Network.enable")

            async def upload_rate(bytes_per_second):
                await network.send("Network.emulateNetworkConditions", {
                    "offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": bytes_per_second})

            async def drop_first_chunk(route):
                if route.request.method == "PATCH" and "dropped" not in state:
                    state["dropped"] = route.request.headers.get("upload-offset")
                    await route.abort("internetdisconnected")
                else:
                    await route.continue_()
            state = {}
            await page.goto(f"{url}/")
            await upload_rate(RESUME_BYTES_PER_SECOND)
            await page.route("**/api/uploads/*", drop_first_chunk)
            await page.fill("#upload-title", "resumed")
            await page.set_input_files("#upload-files", self.config["clip"])
            await wait_until(page, "document.querySelector('.upload-state').textContent.startsWith('Interrupted')")
            state["interrupted"] = await page.text_content(".upload-state")
            await page.unroute("**/api/uploads/*", drop_first_chunk)
            await wait_until(page, "document.querySelector('.upload-progress').value >= 0.5")
            await page.reload()
            await page.wait_for_selector("#upload-files", state="attached")
            await upload_rate(-1)
            await page.evaluate("""window.vodUploadStates = [];
              new MutationObserver(() => { const s = document.querySelector('.upload-state');
                if (s && window.vodUploadStates.at(-1) !== s.textContent) window.vodUploadStates.push(s.textContent); })
              .observe(document.getElementById('uploads'), { subtree: true, childList: true, characterData: true });""")
            await page.set_input_files("#upload-files", self.config["clip"])
            await wait_until(page, "document.querySelector('.upload-state').textContent === 'Uploaded'")
            state["states"] = await page.evaluate("window.vodUploadStates")
            media = await (await page.request.get(f"{url}/api/media")).json()
            state["titles"] = [item["title"] for item in media]
            state["duration"] = next((item["duration"] for item in media if item["title"] == "resumed"), None)
            self.report["resume"] = state
        await self.phase("resume", resume)

        async def leave_while_reading():
            # The library, left for a title while it still reads the list (held back here), leaves the title's
            # page alone when the list arrives: any page error is reported.
            asked, release = asyncio.get_running_loop().create_future(), asyncio.get_running_loop().create_future()

            async def hold(route):
                if not asked.done():
                    asked.set_result(None)
                await release
                await route.continue_()
            media = await (await page.request.get(f"{url}/api/media")).json()
            await page.route("**/api/media", hold)
            try:
                await page.goto(f"{url}/")
                await asyncio.wait_for(asked, TIMEOUT / 1000)
                await page.evaluate("(id) => { location.hash = `#/media/${id}`; }", media[0]["id"])
                await wait_until(page, "(title) => document.getElementById('player-heading')?.textContent === title",
                                 arg=media[0]["title"])
                async with page.expect_request_finished(lambda request: request.url.endswith("/api/media")):
                    release.set_result(None)
                await page.evaluate("new Promise((resolve) => setTimeout(resolve, 200))")
            finally:
                if not release.done():
                    release.set_result(None)
                await page.unroute("**/api/media", hold)
        await self.phase("leave while reading", leave_while_reading)
        await context.close()

    # The server with an API key and a player script: the key is asked for and never served; the script is used.
    async def key_server(self, browser):
        url, key = self.config["key_url"], self.config["key"]
        context = await self.context(browser)
        await context.route("http://player.test/**", lambda route: route.fulfill(
            status=200, content_type="text/javascript; charset=utf-8", body=PLAYER_SCRIPT))
        await context.add_init_script(NO_NATIVE_HLS)
        served = []
        context.on("response", lambda response: response.url.startswith(url) and served.append(response))
        page = await context.new_page()
        page.set_default_timeout(TIMEOUT)
        state = {}
        self.report["key"] = state

        async def write():
            self.headers("key-index", await page.goto(f"{url}/"))
            await page.wait_for_selector("#library-list", state="attached")
            state["writes_meta"] = await page.get_attribute('meta[name="vod-writes"]', "content")
            await page.evaluate("""window.vodPrompts = [];
              new MutationObserver(() => { const d = document.getElementById('key-dialog');
                if (d.open) window.vodPrompts.push(document.getElementById('key-reason').textContent); })
              .observe(document.getElementById('key-dialog'), { attributes: true, attributeFilter: ['open'] });""")
            await page.fill("#upload-title", "guarded")
            await page.set_input_files("#upload-files", self.config["clip"])
            await page.wait_for_selector("#key-dialog[open]")
            await page.fill("#key-input", "not-the-key")
            await page.click("#key-form button[type=submit]")
            await wait_until(page, "window.vodPrompts.length === 2")
            await page.fill("#key-input", key)
            await page.click("#key-form button[type=submit]")
            await page.wait_for_selector(".upload .upload-open:not([hidden])")
            state["upload_state"] = await page.text_content(".upload-state")
            state["titles"] = [item["title"] for item in await (await page.request.get(f"{url}/api/media")).json()]
            await page.click(".upload-open")
            await wait_until(page, "document.getElementById('edit-title')?.value === 'guarded'")
            await page.fill("#edit-title", "guarded, renamed")
            await page.click("#edit-form button[type=submit]")
            await wait_until(page, "document.getElementById('player-heading')?.textContent === 'guarded, renamed'")
            state["prompts"] = await page.evaluate("window.vodPrompts")
            state["session_key"] = await page.evaluate("sessionStorage.getItem('vod-api-key')") == key
            state["key_in_local_storage"] = key in await page.evaluate("JSON.stringify(localStorage)")
        await self.phase("key", write)

        async def pages_served():
            bodies = []
            for response in served:
                if any(kind in (response.headers.get("content-type") or "") for kind in ["html", "javascript", "css", "svg"]):
                    bodies.append({"url": response.url, "has_key": key in await response.text()})
            state["served"] = bodies
        await self.phase("pages served", pages_served)

        async def player_script():
            # The stand-in hands the stream to Chromium's own HLS, which refuses a title still growing: the page is
            # opened again once the title is ready.
            await wait_until(page, "document.querySelector('.status').textContent === 'ready'")
            await page.reload()
            await wait_until(page, "window.vodPlayerScript?.attached === true")
            await page.evaluate(PLAY)
            await wait_until(page, "document.getElementById('video').currentTime >= 1")
            self.report["player_script"] = {
                "given": await page.evaluate("window.vodPlayerScript"),
                "stream_url": await page.input_value("#stream-url"),
                "playback": await page.evaluate(VIDEO_STATE),
            }
        await self.phase("player script", player_script)
        await context.close()


if __name__ == "__main__":
    print(json.dumps(asyncio.run(Session(json.loads(sys.argv[1])).run())))
