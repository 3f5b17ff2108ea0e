"""Debian's Chromium, headless, as a phone (390 × 844) or at any other size."""

import os

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException, WebDriverException
from selenium.webdriver.support.ui import WebDriverWait

SCREENSHOTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "screenshots")
PHONE = (390, 844)


def start(width=PHONE[0], height=PHONE[1], javascript=True, language="en-US,en"):
    """A browser whose requests say `Accept-Language: language`."""
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     f"--window-size={width},{height}"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "SEVERE"})
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    driver = webdriver.Chrome(
        options=options, service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")))
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 700})
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setUserAgentOverride", {
        "userAgent": driver.execute_script("return navigator.userAgent"), "acceptLanguage": language})
    return driver


class Page:
    """A browser tab with the waits and looks a test needs."""

    def __init__(self, driver, base):
        self.driver = driver
        self.base = base

    def open(self, path):
        self.driver.get(self.base + path)

    def wait(self, condition, timeout=30):
        """Waits until `condition` holds; a page still loading (elements gone or not there yet, or a
        node read as the document is replaced) is asked again."""
        return WebDriverWait(
            self.driver, timeout,
            ignored_exceptions=(NoSuchElementException, StaleElementReferenceException, WebDriverException)
        ).until(lambda _: condition())

    def find(self, css):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def find_all(self, css):
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def button(self, name):
        """The button or link a screen reader announces as `name`; the page's own before the header's."""
        controls = "button, a, [role=button]"
        for element in self.find_all(f"main :is({controls}), dialog :is({controls})") + self.find_all(controls):
            label = element.get_attribute("aria-label") or element.text
            if label.strip() == name and element.is_displayed():
                return element
        raise AssertionError(f"no visible control is named {name!r}")

    def text(self):
        return self.find("body").text

    def cards(self):
        return self.find_all("[data-products] > li")

    def card_tops(self, count):
        """Where the first cards start, read in one go so that nothing moves in between."""
        return self.driver.execute_script(
            "return [...document.querySelectorAll('[data-products] > li')].slice(0, arguments[0])"
            ".map(card => Math.round(card.getBoundingClientRect().top))", count)

    def fill(self, css, value):
        field = self.find(css)
        field.clear()
        field.send_keys(value)

    def error_beside(self, field):
        """The error shown beside a field, read in one script call: a form that is being replaced by
        the page it posted to cannot vanish between finding the slot and reading it."""
        return self.driver.execute_script(
            "const slot = document.querySelector(arguments[0]);"
            "return slot && slot.getClientRects().length > 0 ? slot.innerText : ''",
            f'[data-error-for="{field}"]')

    def no_sideways_scrolling(self):
        return self.driver.execute_script(
            "return document.documentElement.scrollWidth <= document.documentElement.clientWidth")

    def script_errors(self):
        """What the page's script threw. A refused form's 4xx is the server speaking, not an error."""
        return [entry["message"] for entry in self.driver.get_log("browser")
                if "Failed to load resource" not in entry["message"]]

    def screenshot(self, name):
        os.makedirs(SCREENSHOTS, exist_ok=True)
        self.driver.save_screenshot(os.path.join(SCREENSHOTS, f"{name}.png"))
