"""The console on other browsers: a phone in dark mode, and a browser without native HLS."""
from page_scripts import NO_NATIVE_HLS, TIMEOUT, wait_until


class DevicePhases:
    async def device_phases(self, browser, url):
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
