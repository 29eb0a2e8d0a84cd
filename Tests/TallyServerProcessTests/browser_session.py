"""What the dashboard's browser scripts share (Selenium; tooling only): headless Chromium, checks collected
instead of stopping at the first, the browser console's errors, the page's ready state and screenshots."""
import os
import sys

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


class BrowserSession:
    def __init__(self, shots, height=900):
        self.shots = shots
        self.failures = []
        os.makedirs(shots, exist_ok=True)
        options = Options()
        for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                         "--window-size=1200,%d" % height, "--lang=en-US", "--no-first-run", "--disable-extensions"]:
            options.add_argument(argument)
        options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.driver = webdriver.Chrome(service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")),
                                       options=options)
        self.wait = WebDriverWait(self.driver, 15)

    def check(self, condition, message):
        if not condition:
            self.failures.append(message)
            print("FAIL:", message, flush=True)

    def console_errors(self, allowed=()):
        errors = [entry["message"] for entry in self.driver.get_log("browser") if entry["level"] == "SEVERE"]
        return [e for e in errors if not any(a in e for a in allowed)]

    def ready(self):
        self.wait.until(lambda d: d.find_element(By.ID, "view").get_attribute("data-state") == "ready")

    def shot(self, name):
        self.driver.save_screenshot(os.path.join(self.shots, name + ".png"))

    def finish(self, passed):
        """Quits the browser; exits 1 after listing the failures, else prints `passed`."""
        self.driver.quit()
        if self.failures:
            print("%d failure(s)" % len(self.failures))
            sys.exit(1)
        print(passed)
