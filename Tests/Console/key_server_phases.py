"""The server with an API key and a player script: the key is asked for and never served; the script is used."""
from page_scripts import NO_NATIVE_HLS, PLAY, PLAYER_SCRIPT, TIMEOUT, VIDEO_STATE, wait_until
from private_title_phases import PrivateTitlePhases


class KeyServerPhases(PrivateTitlePhases):
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
        await self.private_title(page, url, key)
        await context.close()
