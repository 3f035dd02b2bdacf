#!/usr/bin/env python3
"""Drives areasd's map page in a real headless Chromium (Selenium and chromium-driver, from
Debian) and prints what it saw as one JSON object; MapPageTests compares it with the API.

usage: map_page.py BASE_URL OUTPUT_FOLDER [LAT,LON]
       map_page.py BASE_URL OUTPUT_FOLDER --regions
       map_page.py BASE_URL OUTPUT_FOLDER --no-leaflet

With LAT,LON, the page is then opened there at zoom 17, where zones' footprints are drawn.
With --regions, the page is opened over Seoul at zooms 11 and 15 (districts, then towns as its
background) and with its regions shaded; what it drew is said for each.
With --no-leaflet, the page of a daemon whose http.assets lacks Leaflet: its message, and what
it asked for.
"""
import json
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

base, out = sys.argv[1], sys.argv[2]
options = Options()
for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1000,800", "--lang=ko-KR"]:
    options.add_argument(argument)
options.binary_location = "/usr/bin/chromium"
options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
driver = webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))
driver.set_page_load_timeout(30)
result = {}


def body(name):
    return driver.execute_script("return document.body.dataset[arguments[0]] || null", name)


def settled(deadline=20):
    """Waits until the page says it drew its last answer."""
    end = time.time() + deadline
    while time.time() < end:
        if body("loaded") == "1":
            return True
        time.sleep(0.1)
    raise SystemExit("the page did not finish loading within %d s" % deadline)


def shown():
    return {"view": json.loads(body("view")), "shown": json.loads(body("shown")),
            "areaMarkers": len(driver.find_elements(By.CSS_SELECTOR, "path.area-marker")),
            "clusterMarkers": len(driver.find_elements(By.CSS_SELECTOR, ".cluster-marker")),
            # Each cluster's kinds and the colours its ring is drawn in, as the browser computed them.
            "clusterRings": driver.execute_script(
                "return [...document.querySelectorAll('.cluster-ring')].map(e => ({smoking: +e.dataset.smoking, nonsmoking: +e.dataset.nonsmoking,"
                " drawn: getComputedStyle(e).backgroundImage + ' ' + getComputedStyle(e).backgroundColor}))"),
            "legend": driver.find_element(By.CSS_SELECTOR, ".legend").text,
            # Pairs of cluster rings (circles) that overlap on screen: centres nearer than a diameter.
            "ringOverlaps": driver.execute_script(
                "const r = [...document.querySelectorAll('.cluster-ring')].map(e => e.getBoundingClientRect());"
                "let n = 0; for (let i = 0; i < r.length; i++) for (let j = i + 1; j < r.length; j++) {"
                " const dx = (r[i].left + r[i].right - r[j].left - r[j].right) / 2, dy = (r[i].top + r[i].bottom - r[j].top - r[j].bottom) / 2;"
                " if (Math.hypot(dx, dy) < Math.min(r[i].width, r[j].width)) n++; }"
                "return n")}


def toggle(box):
    driver.execute_script("document.body.dataset.loaded = '0'")
    driver.find_element(By.ID, box).click()
    settled()


def popup(cls, deadline=10):
    end = time.time() + deadline
    while time.time() < end:
        found = driver.find_elements(By.CSS_SELECTOR, ".leaflet-popup.%s .leaflet-popup-content" % cls)
        if found and found[0].text.strip():
            return found[0].text
        time.sleep(0.1)
    return None


def regions(deadline=20):
    """Waits until the page says what boundaries it drew (the same twice, 0.3 s apart: a view
    may be drawn twice as it settles), and returns that with its labels, read in one step."""
    end = time.time() + deadline
    while time.time() < end:
        drawn = body("regions")
        time.sleep(0.3)
        if drawn and body("regions") == drawn:
            seen = driver.execute_script(
                "return {labels: Array.from(document.querySelectorAll('.region-label')).map(e => e.textContent).filter(t => t),"
                " paths: document.querySelectorAll('path.region').length}")
            return {"drawn": json.loads(drawn), "labels": seen["labels"], "view": json.loads(body("view")), "paths": seen["paths"]}
    raise SystemExit("the page drew no boundaries within %d s" % deadline)


def regions_flow():
    for name, zoom in [("districts", 11), ("towns", 15)]:
        driver.get(base + "/map?lat=37.55&lon=126.98&zoom=%d" % zoom)
        settled()
        result[name] = regions()
        driver.save_screenshot(out + "/regions-%s.png" % name)
    driver.get(base + "/map?lat=37.55&lon=126.98&zoom=11")
    settled()
    regions()
    driver.execute_script("delete document.body.dataset.regions")
    toggle("shade-regions")
    result["shaded"] = regions()
    result["shaded"]["fills"] = driver.execute_script(
        "return Array.from(document.querySelectorAll('path.region')).map(p => p.getAttribute('fill-opacity'))")
    result["attribution"] = driver.find_element(By.CSS_SELECTOR, ".leaflet-control-attribution").text
    result["resources"] = driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    result["console"] = [entry for entry in driver.get_log("browser") if entry.get("level") in ("SEVERE", "WARNING")]
    driver.save_screenshot(out + "/regions-shaded.png")


def no_leaflet_flow():
    """A daemon without Leaflet: the page says so itself, asks for nothing it lacks."""
    driver.get(base + "/map")
    end = time.time() + 10
    while time.time() < end and not driver.find_elements(By.ID, "no-leaflet"):
        time.sleep(0.1)
    note = driver.find_element(By.ID, "no-leaflet")
    result["message"] = note.text
    result["messageShown"] = note.is_displayed()
    result["resources"] = driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    result["console"] = [entry for entry in driver.get_log("browser") if entry.get("level") in ("SEVERE", "WARNING")]
    driver.save_screenshot(out + "/no-leaflet.png")


try:
    if sys.argv[3:4] == ["--regions"]:
        regions_flow()
        raise SystemExit(0)
    if sys.argv[3:4] == ["--no-leaflet"]:
        no_leaflet_flow()
        raise SystemExit(0)
    driver.get(base + "/map?lat=37.55&lon=126.98&zoom=12")
    settled()
    result["first"] = shown()
    # What the first load cost: every request the page made, and the bytes they carried.
    result["firstLoad"] = driver.execute_script(
        "const all = performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'));"
        "return {requests: all.length, bytes: all.reduce((n, e) => n + (e.transferSize || 0), 0),"
        " names: all.map(e => e.name.replace(location.origin, ''))}")
    toggle("show-smoking")
    result["nonsmokingOnly"] = shown()
    toggle("show-smoking")
    result["again"] = shown()
    # An area's details: an area marker in the open part of the map (not under the panel),
    # clicked as a person would.
    markers = [m for m in driver.find_elements(By.CSS_SELECTOR, "path.area-marker")
               if 40 < m.rect["x"] < 560 and 120 < m.rect["y"] < 740 and m.rect["width"] > 0]
    if not markers:
        raise SystemExit("no area marker in the open part of the map")
    ActionChains(driver).move_to_element(markers[0]).click().perform()
    result["details"] = popup("area-details")
    if result["details"] is None:
        raise SystemExit("no details after clicking an area; status: %s" % driver.find_element(By.ID, "status").text)
    # check where one clicks: an empty spot of the map, away from the panel.
    driver.find_element(By.CSS_SELECTOR, ".leaflet-popup-close-button").click()
    surface = driver.find_element(By.ID, "map")
    ActionChains(driver).move_to_element_with_offset(surface, -350, 300).click().perform()
    result["check"] = popup("check")
    result["checkedAt"] = json.loads(body("checked") or "null")
    result["resources"] = driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    result["console"] = [entry for entry in driver.get_log("browser") if entry.get("level") in ("SEVERE", "WARNING")]
    driver.save_screenshot(out + "/map.png")
    if len(sys.argv) > 3:
        lat, lon = sys.argv[3].split(",")
        driver.get(base + "/map?lat=%s&lon=%s&zoom=17" % (lat, lon))
        settled()
        result["deep"] = shown()
        result["deep"]["footprintShapes"] = len(driver.find_elements(By.CSS_SELECTOR, "path.footprint"))
        driver.save_screenshot(out + "/footprints.png")
except SystemExit as stop:
    if stop.code not in (0, None):
        raise
finally:
    driver.quit()
print(json.dumps(result, ensure_ascii=False))
