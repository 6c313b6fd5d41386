"""The library of the server without write protection: load, upload two files, watch them become ready."""
from page_scripts import CARD_STATUS, UPLOAD_BYTES_PER_SECOND, WATCH_LIBRARY, wait_until


class LibraryPhases:
    async def library_phases(self, url, context, page):
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
              title: card.querySelector('.card-title a').textContent, href: card.querySelector('.card-title a').getAttribute('href'),
              rungs: card.querySelector('.rungs').textContent,
              duration: card.querySelector('.duration').textContent, poster: !card.querySelector('.poster img').hidden }))""")
            await page.fill("#filter-search", "trac")
            self.report["search_tra"] = await page.eval_on_selector_all(".card-title a", "links => links.map(link => link.textContent)")
            await page.fill("#filter-search", "")
            await page.select_option("#filter-status", "failed")
            self.report["filter_failed"] = await page.eval_on_selector_all(".card", "cards => cards.length")
            await page.select_option("#filter-status", "")
            await self.axe(page, "library")
        await self.phase("transcode", transcode)
