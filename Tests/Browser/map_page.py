#!/usr/bin/env python3
"""Drives areasd's map page in a real headless Chromium (Selenium and chromium-driver, from
Debian) and prints what it saw as one JSON object; MapPageTests compares it with the API.

usage: map_page.py BASE_URL OUTPUT_FOLDER [LAT,LON]
       map_page.py BASE_URL OUTPUT_FOLDER --regions [ID,LAT,LON]
       map_page.py BASE_URL OUTPUT_FOLDER --no-leaflet
       map_page.py BASE_URL OUTPUT_FOLDER --tiles
       map_page.py BASE_URL OUTPUT_FOLDER --new LAT,LON

With LAT,LON, the page is then opened there at zoom 17, where zones' footprints are drawn,
and asked "where am I" with the browser standing there. Then a route is drawn, and the page is
opened on a phone's screen.
With --regions, the page is opened over Seoul at zooms 11 and 15 (districts, then towns as its
background) and with its regions shaded; what it drew is said for each.
With --new, the page at LAT,LON at zoom 16: the areas it rings as first seen in the last 30
days, where, and the details of one; what it lists and marks as gone in those days.
With --no-leaflet, the page of a daemon whose http.assets lacks Leaflet: its message, and what
it asked for.
"""
import json
import os
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

base, out = sys.argv[1], sys.argv[2]
# Chromium's profile, crash reports and GTK's settings cache go into the test's folder (removed
# with it), never into the home folder, however the test was started.
for variable in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME"):
    os.environ[variable] = os.path.join(out, "browser", variable.lower())


def browser(phone=False):
    """A headless Chromium: a 1000x800 window, or a phone's 390x844 touch screen."""
    options = Options()
    size = "390,844" if phone else "1000,800"
    profile = os.path.join(out, "browser", "profile-phone" if phone else "profile")
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=" + size, "--lang=ko-KR", "--user-data-dir=" + profile]:
        options.add_argument(argument)
    if phone:
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 3.0, "touch": True}})
    options.binary_location = "/usr/bin/chromium"
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    made = webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))
    made.set_page_load_timeout(30)
    return made


driver = browser()
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


def blocks(cls):
    """The open popup's sentences: each paragraph and list item, with the language it says it is in."""
    return driver.execute_script(
        "return [...document.querySelectorAll('.leaflet-popup.' + arguments[0] + ' .leaflet-popup-content :is(p, li)')]"
        ".map(e => ({lang: e.closest('[lang]').getAttribute('lang'), text: e.textContent}))", cls)


def waited(name, deadline=10):
    end = time.time() + deadline
    while time.time() < end:
        if body(name) is not None:
            return json.loads(body(name))
        time.sleep(0.1)
    raise SystemExit("the page did not set %s within %d s" % (name, deadline))


def placeholder():
    """The search box's placeholder as drawn: its width and the room the box gives it."""
    return driver.execute_script(
        "const i = document.getElementById('search'), s = getComputedStyle(i), c = document.createElement('canvas').getContext('2d');"
        "c.font = s.font; return {text: c.measureText(i.placeholder).width,"
        " room: i.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight)}")


def rect(selector):
    return driver.execute_script(
        "const e = document.querySelector(arguments[0]); if (!e) return null; const r = e.getBoundingClientRect();"
        "return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}", selector)


def locate_flow(lat, lon):
    """"Where am I" with the browser's position set to LAT,LON: the marker, its accuracy, the
    footprints of the zones there, and the check popup."""
    driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": base, "permissions": ["geolocation"]})
    driver.execute_cdp_cmd("Emulation.setGeolocationOverride", {"latitude": lat, "longitude": lon, "accuracy": 25})
    driver.get(base + "/map?lat=37.55&lon=126.98&zoom=12")
    settled()
    driver.execute_script("document.body.dataset.loaded = '0'")
    driver.find_element(By.ID, "locate").click()
    located = waited("located")
    settled()
    popup("check")
    waited("checkFootprints")
    # Where the marker is drawn against where the map puts that position on screen.
    drawn = driver.execute_script(
        "const m = document.querySelector('path.you-are-here').getBoundingClientRect(), box = document.getElementById('map').getBoundingClientRect();"
        "const p = map.latLngToContainerPoint(arguments[0]);"
        "return {markers: document.querySelectorAll('path.you-are-here').length, accuracy: document.querySelectorAll('path.position-accuracy').length,"
        " offset: Math.hypot((m.left + m.right) / 2 - box.left - p.x, (m.top + m.bottom) / 2 - box.top - p.y),"
        " footprints: document.querySelectorAll('path.footprint-checked').length,"
        # Whatever else is drawn there, the marker is what one sees (and taps) at the position.
        " onTop: document.elementFromPoint((m.left + m.right) / 2, (m.top + m.bottom) / 2).classList.contains('you-are-here')}", [located[0], located[1]])
    return {"located": located, "drawn": drawn, "checkFootprints": int(body("checkFootprints")), "popup": blocks("check")}


def route_flow():
    """A route of two clicks across the view: the list the page makes, with each area's kind."""
    driver.get(base + "/map?lat=37.5340&lon=126.9900&zoom=15")
    settled()
    driver.find_element(By.ID, "route-mode").click()
    surface = driver.find_element(By.ID, "map")
    for dx, dy in [(-300, -150), (120, 200)]:
        ActionChains(driver).move_to_element_with_offset(surface, dx, dy).click().perform()
    asked = waited("route")
    end = time.time() + 10
    while time.time() < end and not driver.find_elements(By.CSS_SELECTOR, "#route tr"):
        time.sleep(0.1)
    rows = driver.execute_script("return [...document.querySelectorAll('#route tr')].map(r => ({kind: r.dataset.kind, text: r.textContent}))")
    return {"path": asked, "rows": rows}


def search_flow(text, pick):
    """Types TEXT in the search box as a person would, reads the list, and chooses its first
    entry of class PICK (result-area or result-place)."""
    driver.get(base + "/map?lat=37.55&lon=126.98&zoom=12")
    settled()
    box = driver.find_element(By.ID, "search")
    box.send_keys(text)
    searched = waited("searched")
    items = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "#results li")]
    first = driver.find_elements(By.CSS_SELECTOR, "#results li." + pick)
    if not first:
        raise SystemExit("no %s among the results for %s: %s" % (pick, text, items))
    first[0].click()
    chosen = waited("chosen")
    # Where the map settles once it has moved (the same twice, 0.3 s apart).
    center, end = None, time.time() + 10
    while time.time() < end:
        now = driver.execute_script("const c = map.getCenter(); return [c.lat, c.lng]")
        if now == center:
            break
        center = now
        time.sleep(0.3)
    seen = {"searched": searched, "items": items, "chosen": chosen, "center": center}
    if pick == "result-area":
        seen["details"] = popup("area-details")
    else:
        seen["near"] = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "#results li.result-near")]
    driver.save_screenshot(out + "/search-%s.png" % pick)
    return seen


def phone_flow():
    """The page on a phone: what the panel covers, whether it sits on the map's controls, the
    size of a finger's target, the options behind 보기, and a tap on the map's middle."""
    global driver
    driver.quit()
    driver = browser(phone=True)
    driver.get(base + "/map?lat=37.5340&lon=126.9900&zoom=16")
    settled()
    seen = {"viewport": driver.execute_script("return [innerWidth, innerHeight]"),
            "panel": rect("#panel"), "zoom": rect(".leaflet-control-zoom"), "legend": rect(".legend"),
            "attribution": rect(".leaflet-control-attribution"),
            "targets": driver.execute_script("return [...document.querySelectorAll('path.area-hit')].map(e => e.getBoundingClientRect().width)"),
            "markers": driver.execute_script("return [...document.querySelectorAll('path.area-marker')].map(e => e.getBoundingClientRect().width)"),
            "optionsShown": driver.find_element(By.ID, "show-smoking").is_displayed(),
            "legendItemsShown": driver.find_element(By.CSS_SELECTOR, ".legend-items").is_displayed(),
            "noStreets": rect(".no-streets"), "placeholder": placeholder()}
    driver.save_screenshot(out + "/phone.png")
    driver.find_element(By.CSS_SELECTOR, ".legend-toggle").click()
    seen["legendItemsShownAfterToggle"] = driver.find_element(By.CSS_SELECTOR, ".legend-items").is_displayed()
    seen["legendOpen"] = rect(".legend")
    driver.find_element(By.CSS_SELECTOR, ".legend-toggle").click()
    driver.find_element(By.ID, "menu").click()
    seen["optionsShownAfterMenu"] = driver.find_element(By.ID, "show-smoking").is_displayed()
    seen["panelWithMenu"] = rect("#panel")
    driver.find_element(By.ID, "menu").click()
    # A tap in the map's middle (away from any area's target) answers check there.
    driver.execute_script("document.querySelectorAll('.area-hit, .area-marker').forEach(e => e.remove())")
    ActionChains(driver).move_to_element(driver.find_element(By.ID, "map")).click().perform()
    seen["check"] = popup("check")
    seen["console"] = [entry for entry in driver.get_log("browser") if entry.get("level") in ("SEVERE", "WARNING")]
    return seen


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
                " shown: Array.from(document.querySelectorAll('.region-label')).filter(e => e.textContent && getComputedStyle(e).visibility !== 'hidden')"
                "   .map(e => { const r = e.getBoundingClientRect(); return {text: e.textContent, left: r.left, top: r.top, right: r.right, bottom: r.bottom}; }),"
                " rings: Array.from(document.querySelectorAll('.cluster-ring')).map(e => { const r = e.getBoundingClientRect(); return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; }),"
                " paths: document.querySelectorAll('path.region').length}")
            return {"drawn": json.loads(drawn), "labels": seen["labels"], "shown": seen["shown"], "rings": seen["rings"], "view": json.loads(body("view")),
                    "paths": seen["paths"]}
    raise SystemExit("the page drew no boundaries within %d s" % deadline)


def regions_flow():
    for name, zoom, at in [("provinces", 7, "36.4&lon=128.4"), ("districts", 11, "37.55&lon=126.98"), ("towns", 15, "37.55&lon=126.98")]:
        driver.get(base + "/map?lat=%s&zoom=%d" % (at, zoom))
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
    result["placeSearch"] = search_flow("용산구 이태원동", "result-place")
    if len(sys.argv) > 4:
        # A record flagged outside its district (ID,LAT,LON): its details as a person opens them.
        flagged, lat, lon = sys.argv[4].split(",")
        driver.get(base + "/map?lat=%s&lon=%s&zoom=17" % (lat, lon))
        settled()
        driver.execute_script("details(arguments[0], [arguments[1], arguments[2]])", flagged, float(lat), float(lon))
        result["flagged"] = popup("area-details")
        result["flaggedShown"] = driver.execute_script("return document.querySelectorAll('.area-details .flagged').length")
        driver.save_screenshot(out + "/flagged.png")


def crowd_flow():
    """The city's hotspots over the map, each filled by its level, and the legend naming them."""
    driver.get(base + "/map?lat=37.555&lon=126.98&zoom=13")
    settled()
    # The first answer, then the page's second look (3 s later) at what the view asked for.
    end = time.time() + 20
    while time.time() < end and not (body("crowd") and json.loads(body("crowd")).get("again")):
        time.sleep(0.1)
    result["crowd"] = json.loads(body("crowd") or "null")
    result["paths"] = driver.execute_script(
        "return [...document.querySelectorAll('path.crowd')].map(p => ({cls: p.getAttribute('class'), fill: getComputedStyle(p).fill}))")
    result["legend"] = driver.find_element(By.CSS_SELECTOR, ".legend").text
    result["resources"] = driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    result["console"] = [entry for entry in driver.get_log("browser") if entry.get("level") in ("SEVERE", "WARNING")]
    driver.save_screenshot(out + "/crowd.png")


def new_flow(lat, lon):
    """The page at LAT,LON at zoom 16: what it drew, where it ringed areas as new (each ring's
    centre as the map's position), and the details of the first ringed area, clicked."""
    driver.get(base + "/map?lat=%s&lon=%s&zoom=16" % (lat, lon))
    settled()
    result.update(shown())
    def centres(selector):
        return driver.execute_script(
            "const m = document.getElementById('map').getBoundingClientRect();"
            "return [...document.querySelectorAll(arguments[0])].map(e => { const r = e.getBoundingClientRect();"
            " const p = map.containerPointToLatLng([(r.left + r.right) / 2 - m.left, (r.top + r.bottom) / 2 - m.top]); return [p.lat, p.lng]; })", selector)
    result["rings"] = centres("path.area-new")
    result["goneRings"] = centres("path.area-vanished")
    result["gone"] = json.loads(body("vanished") or "null")
    gone = driver.find_element(By.ID, "vanished")
    result["goneText"] = gone.text if gone.is_displayed() else None
    result["newLegend"] = " ".join(e.text for e in driver.find_elements(By.CSS_SELECTOR, ".legend-items div"))
    rings = driver.find_elements(By.CSS_SELECTOR, "path.area-new")
    if rings:
        ring = rings[0].rect
        centre = (ring["x"] + ring["width"] / 2, ring["y"] + ring["height"] / 2)
        markers = [m for m in driver.find_elements(By.CSS_SELECTOR, "path.area-marker")
                   if abs(m.rect["x"] + m.rect["width"] / 2 - centre[0]) < 2 and abs(m.rect["y"] + m.rect["height"] / 2 - centre[1]) < 2]
        if markers:
            ActionChains(driver).move_to_element(markers[0]).click().perform()
            result["details"] = popup("area-details")
    result["console"] = [entry for entry in driver.get_log("browser") if entry.get("level") in ("SEVERE", "WARNING")]
    driver.save_screenshot(out + "/new.png")


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
    if sys.argv[3:4] == ["--crowd"]:
        crowd_flow()
        raise SystemExit(0)
    if sys.argv[3:4] == ["--tiles"]:
        # With http.tiles: at a street's zoom the tiles are asked for, and nothing is missing.
        driver.get(base + "/map?lat=37.5547&lon=126.9707&zoom=17")
        settled()
        end = time.time() + 10
        while time.time() < end and not driver.find_elements(By.CSS_SELECTOR, "img.leaflet-tile-loaded"):
            time.sleep(0.1)
        result["noStreets"] = body("noStreets")
        result["noStreetsShown"] = len(driver.find_elements(By.CSS_SELECTOR, ".no-streets"))
        result["tilesLoaded"] = len(driver.find_elements(By.CSS_SELECTOR, "img.leaflet-tile-loaded"))
        result["attribution"] = driver.find_element(By.CSS_SELECTOR, ".leaflet-control-attribution").text
        result["resources"] = driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
        result["console"] = [entry for entry in driver.get_log("browser") if entry.get("level") in ("SEVERE", "WARNING")]
        driver.save_screenshot(out + "/tiles.png")
        raise SystemExit(0)
    if sys.argv[3:4] == ["--new"]:
        new_flow(*sys.argv[4].split(","))
        raise SystemExit(0)
    if sys.argv[3:4] == ["--no-leaflet"]:
        no_leaflet_flow()
        raise SystemExit(0)
    driver.get(base + "/map?lat=37.55&lon=126.98&zoom=12")
    settled()
    result["first"] = shown()
    result["first"]["noStreets"] = body("noStreets")
    result["first"]["placeholder"] = placeholder()
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
    # check where one clicks: an empty spot of the map, away from the panel and the legend.
    driver.find_element(By.CSS_SELECTOR, ".leaflet-popup-close-button").click()
    surface = driver.find_element(By.ID, "map")
    ActionChains(driver).move_to_element_with_offset(surface, -350, 120).click().perform()
    result["check"] = popup("check")
    result["checkBlocks"] = blocks("check")
    result["checkedAt"] = json.loads(body("checked") or "null")
    # A pointer's target: each area's marker as drawn.
    result["markerWidths"] = driver.execute_script("return [...document.querySelectorAll('path.area-marker')].map(e => e.getBoundingClientRect().width)")
    result["resources"] = driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    result["console"] = [entry for entry in driver.get_log("browser") if entry.get("level") in ("SEVERE", "WARNING")]
    driver.save_screenshot(out + "/map.png")
    if len(sys.argv) > 3:
        lat, lon = sys.argv[3].split(",")
        driver.get(base + "/map?lat=%s&lon=%s&zoom=17" % (lat, lon))
        settled()
        result["deep"] = shown()
        result["deep"]["footprintShapes"] = len(driver.find_elements(By.CSS_SELECTOR, "path.footprint"))
        result["deep"]["noStreets"] = body("noStreets")
        result["deep"]["noStreetsText"] = " ".join(e.text for e in driver.find_elements(By.CSS_SELECTOR, ".no-streets"))
        driver.save_screenshot(out + "/footprints.png")
        result["locate"] = locate_flow(float(lat), float(lon))
        driver.save_screenshot(out + "/located.png")
    result["route"] = route_flow()
    result["search"] = search_flow("서울역 광장", "result-area")
    result["phone"] = phone_flow()
except SystemExit as stop:
    if stop.code not in (0, None):
        raise
finally:
    driver.quit()
print(json.dumps(result, ensure_ascii=False))
