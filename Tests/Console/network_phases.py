"""The console when the network misbehaves: an upload cut and resumed, a list that arrives after the page was left."""
import asyncio

from page_scripts import RESUME_BYTES_PER_SECOND, TIMEOUT, wait_until


class NetworkPhases:
    async def network_phases(self, url, context, page):
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
