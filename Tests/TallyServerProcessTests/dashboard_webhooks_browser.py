#!/usr/bin/env python3
"""Drives the dashboard's Webhooks page of a running `tally serve` (one endpoint that refuses connections, one
dead-lettered event) in headless Chromium (Selenium; tooling only): the counts and the rows are the API's, the
endpoint shows without its secrets, Retry without a secret key says it needs one, Retry with the secret key makes
the event due again (the API counts it afresh), and the console has no errors.

Usage: dashboard_webhooks_browser.py BASE_URL DASHBOARD_KEY SECRET_KEY SCREENSHOT_DIR EVENT_ID
Exits 0 when every check passes; prints each failure and exits 1 otherwise.
"""
import json
import sys
import urllib.request

from selenium.webdriver.common.by import By

from browser_session import BrowserSession

base, key, secret, shots, event_id = sys.argv[1:6]


def api(path):
    request = urllib.request.Request(base + path, headers={"Authorization": "Bearer " + key})
    with urllib.request.urlopen(request) as response:
        return json.load(response)


session = BrowserSession(shots, height=1000)
driver, wait, check, console_errors, ready, shot = (session.driver, session.wait, session.check, session.console_errors,
                                                    session.ready, session.shot)


def status_text():
    """The status line's text, read in one script (the page replaces the element when it reloads)."""
    return driver.execute_script("return document.getElementById('webhooks-status')?.textContent ?? ''")


def rows():
    return driver.execute_script("""
        const t = document.querySelector("table[aria-label='Webhook deliveries']");
        return t ? [...t.querySelectorAll("tbody tr")].map((r) => [...r.querySelectorAll("td")].map((c) => c.textContent)) : [];""")


try:
    expected = api("/v1/dashboard/webhooks")
    driver.get(base + "/dashboard/")
    wait.until(lambda d: d.find_element(By.ID, "login").is_displayed())
    driver.find_element(By.ID, "key").send_keys(key)
    driver.find_element(By.CSS_SELECTOR, "#login button").click()
    wait.until(lambda d: d.find_element(By.ID, "nav").is_displayed())
    driver.find_element(By.CSS_SELECTOR, "nav a[href='#webhooks']").click()
    ready()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "table[aria-label='Webhook deliveries']"))
    check(driver.find_element(By.ID, "webhooks-dead").text == str(expected["stats"]["dead"]), "the dead-letter count")
    check(driver.find_element(By.ID, "webhooks-delivered").text == str(expected["stats"]["delivered"]), "the delivered count")
    listed = rows()
    check([r[9] for r in listed] == [d["eventId"] for d in expected["deliveries"]], "the rows are the API's: %r" % listed)
    check(any(r[9] == event_id and r[4] == "dead" for r in listed), "the dead letter is listed: %r" % listed)
    page = driver.find_element(By.ID, "view").text
    check("s3cret" not in page and "pa55" not in page, "the endpoint's secrets are not shown")
    check("http://127.0.0.1:9/tally" in page, "the endpoint is shown without them")
    shot("webhooks")

    button = driver.find_element(By.CSS_SELECTOR, "button.retry[data-event='%s']" % event_id)
    button.click()
    wait.until(lambda d: "needs a secret key" in status_text())
    driver.find_element(By.ID, "webhooks-secret-key").send_keys(secret)
    driver.find_element(By.CSS_SELECTOR, "button.retry[data-event='%s']" % event_id).click()
    wait.until(lambda d: "is due again" in status_text())
    ready()
    shot("webhooks-retried")

    # The filter links: "delivered" lists none (the endpoint refuses every connection).
    driver.find_element(By.CSS_SELECTOR, "a[href='#webhooks/state=delivered']").click()
    wait.until(lambda d: d.find_elements(By.ID, "no-deliveries"))
    check(console_errors() == [], "console errors: %r" % console_errors())
finally:
    session.finish("all webhooks page checks passed")
