"""What the console test runs in Chromium's pages, and how it waits for a page to show something."""
import asyncio
import os

from playwright.async_api import Error as PlaywrightError


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
