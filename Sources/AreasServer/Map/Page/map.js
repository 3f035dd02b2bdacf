// The map page's script (map.html loads it after Leaflet): clusters of the view from
// /v1/clusters, an area's details from /v1/areas/ID, check where one clicks or stands, a
// route's areas from /v1/along, and the sources report. Without a tile server, Korea's
// administrative boundaries from /v1/regions are the background, labelled with their names. It reads only members that
// AreaSchema names (AreaSchemaTests reads this file for them).
"use strict";
const settings = JSON.parse(document.getElementById("settings").textContent);
const params = new URLSearchParams(location.search);
const map = L.map("map", { preferCanvas: false }).setView(
  [Number(params.get("lat") || 36.4), Number(params.get("lon") || 127.8)], Number(params.get("zoom") || 7));
if (settings.tiles) L.tileLayer(settings.tiles, { attribution: settings.attribution || "", maxZoom: 19 }).addTo(map);
// The city's four crowd levels, least crowded first, as /v1/crowd names them.
const crowdLevels = ["여유", "보통", "약간 붐빔", "붐빔"];
// What the colours mean: areas by kind, and a cluster's ring by the share of each kind in it.
const legend = L.control({ position: "bottomleft" });
legend.onAdd = () => {
  const box = L.DomUtil.create("div", "legend");
  // On a phone the legend is folded behind its button, keeping the map free.
  box.innerHTML = "<button type=\"button\" class=\"legend-toggle\" aria-expanded=\"false\">범례 (legend)</button><div class=\"legend-items\">"
    + "<div><i class=\"swatch swatch-smoking\"></i>흡연구역 (smoking area)</div>"
    + "<div><i class=\"swatch swatch-nonsmoking\"></i>금연구역 (non-smoking zone)</div>"
    + "<div><i class=\"swatch swatch-ring\"></i>묶음: 종류별 비율 (cluster: the share of each kind)</div>"
    + "<div><i class=\"swatch swatch-new\"></i>최근 30일 새로 생긴 곳 (first seen in the last 30 days)</div>"
    + "<div><i class=\"swatch swatch-gone\"></i>최근 30일 사라진 곳 (gone in the last 30 days)</div>"
    + (settings.crowd ? "<div class=\"legend-crowd\">혼잡도 (crowd): " + crowdLevels.map((l, i) => "<i class=\"swatch swatch-crowd crowd-" + i + "\"></i>" + l).join(" ") + "</div>" : "")
    + "</div>";
  const toggle = box.querySelector(".legend-toggle");
  toggle.addEventListener("click", () => toggle.setAttribute("aria-expanded", String(box.classList.toggle("open"))));
  L.DomEvent.disableClickPropagation(box);
  return box;
};
legend.addTo(map);
// Without a tile server there are no streets or buildings: from zoom 15, where a person looks
// for which corner a booth is on, the page says so and how to add them.
const noStreets = L.control({ position: matchMedia("(max-width: 480px)").matches ? "topright" : "bottomright" });
noStreets.onAdd = () => {
  const box = L.DomUtil.create("div", "no-streets");
  box.innerHTML = "거리·건물 지도가 없습니다: 설정의 http.tiles에 타일 서버를 지정하세요 (no streets or buildings: street detail needs a tile server, set http.tiles in the config)";
  return box;
};
let noStreetsShown = false;
function sayWhetherStreetsAreShown() {
  const wanted = !settings.tiles && map.getZoom() >= 15;
  if (wanted !== noStreetsShown) { if (wanted) noStreets.addTo(map); else noStreets.remove(); }
  noStreetsShown = wanted;
  document.body.dataset.noStreets = wanted ? "1" : "0";
}
map.on("zoomend", sayWhetherStreetsAreShown);
sayWhetherStreetsAreShown();
// The boundaries under everything else: provinces at a country's zoom, districts from zoom 8,
// towns from zoom 14 (a region is `r`, its properties `r.properties`).
map.createPane("regions").style.zIndex = 250;
const regionLayer = L.layerGroup().addTo(map);
const regionLevel = (zoom) => zoom < 8 ? "province" : zoom < 14 ? "district" : "town";
const regionName = (p) => p.town || p.district || p.province;
// Zones' footprints from zoom 16, under the markers.
const footprintLayer = L.layerGroup().addTo(map);
const layer = L.layerGroup().addTo(map);
const routeLayer = L.layerGroup().addTo(map);
// What a check found where one clicked or stands (the zones' footprints), and where the page
// found its reader.
const checkLayer = L.layerGroup().addTo(map);
const hereLayer = L.layerGroup().addTo(map);
map.createPane("here").style.zIndex = 450;
// A finger needs a bigger target than a pointer: on a touch screen each area also has an
// unseen 44 px circle that answers a tap.
const touch = matchMedia("(pointer: coarse)").matches || navigator.maxTouchPoints > 0;
const status = document.getElementById("status");
const vanishedBox = document.getElementById("vanished");
const text = (value) => String(value ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
async function ask(path) {
  const response = await fetch(path, { headers: { Accept: "application/json" } });
  const body = await response.json();
  if (!body.ok) throw new Error(body.error ? body.error.message : "HTTP " + response.status);
  return body;
}
// An area's kind, as the legend names it.
const kindText = (k) => k === "smoking" ? "흡연구역 (smoking area)" : "금연구역 (non-smoking zone)";
function kind() {
  const s = document.getElementById("show-smoking").checked, n = document.getElementById("show-nonsmoking").checked;
  return s && n ? "all" : s ? "smoking" : n ? "nonsmoking" : null;
}
function sourceColour(name) {
  let h = 0;
  for (const c of String(name)) h = (h * 31 + c.codePointAt(0)) % 360;
  return "hsl(" + h + ", 70%, 40%)";
}
// A zone's footprint as its answer states it: a circle of its radius (dashed when only
// approximate), its polygon (and the band its words widen it by), or its corridor, drawn as
// wide as the corridor is on the ground at this zoom, into `target` (the view's footprints, or
// a check's, drawn stronger). Returns whether one was drawn.
function drawFootprint(a, target = footprintLayer) {
  const f = a.footprint;
  if (!f) return false;
  const checked = target === checkLayer;
  const style = { className: "footprint footprint-" + f.basis + (checked ? " footprint-checked" : ""), color: "#c0392b",
                  weight: checked ? 2 : 1, fillOpacity: checked ? 0.2 : 0.12, interactive: false };
  if (f.shape === "circle") {
    L.circle([a.lat, a.lon], Object.assign({ radius: f.radiusMeters, dashArray: f.approximate ? "4 4" : null }, style)).addTo(target);
    return true;
  }
  if (!f.geometry) return false;
  const metersPerPixel = 40075016.686 * Math.cos(a.lat * Math.PI / 180) / Math.pow(2, map.getZoom() + 8);
  const band = Math.max(2, 2 * (f.widthMeters || 0) / metersPerPixel);
  if (f.shape === "corridor") {
    L.geoJSON(f.geometry, { style: Object.assign({}, style, { weight: band, opacity: 0.35, lineCap: "round", lineJoin: "round" }) }).addTo(target);
    return true;
  }
  L.geoJSON(f.geometry, { style }).addTo(target);
  if (f.widthMeters > 0) L.geoJSON(f.geometry, { style: Object.assign({}, style, { fill: false, weight: band, opacity: 0.25 }) }).addTo(target);
  return true;
}
// The city's hotspots, each filled by its last crowd level (grey and dashed: none known yet;
// hatched: older than the daemon's crowd.staleAfterSeconds), with the level's time and age.
// From zoom 13 the view is sent along: the hotspots in it count as asked about (the daemon
// asks the city about the nearest few, within the views' share of the day), and the page
// looks again a few seconds later for what came. Asked again at most once a minute for one
// view, as the levels change every five. A hotspot is `h`, its properties `h.properties`.
map.createPane("crowd").style.zIndex = 300;
const crowdLayer = L.layerGroup().addTo(map);
let crowdAskedAt = 0, crowdViewAsked = "", crowdLookAgain;
async function drawCrowd(again) {
  if (!settings.crowd) return;
  const b = map.getBounds(), zoom = map.getZoom();
  const view = zoom >= 13 ? { south: b.getSouth().toFixed(5), west: b.getWest().toFixed(5), north: b.getNorth().toFixed(5), east: b.getEast().toFixed(5) } : null;
  const viewText = view ? new URLSearchParams(view).toString() : "";
  if (!again && viewText === crowdViewAsked && Date.now() - crowdAskedAt < 60000) return;
  crowdAskedAt = Date.now();
  crowdViewAsked = viewText;
  clearTimeout(crowdLookAgain);
  try {
    const response = await fetch("/v1/crowd" + (view ? "?" + viewText : ""), { headers: { Accept: "application/geo+json" } });
    const body = await response.json();
    crowdLayer.clearLayers();
    if (!response.ok) { document.body.dataset.crowd = JSON.stringify({ error: body.error ? body.error.message : String(response.status) }); return; }
    L.geoJSON(body, {
      pane: "crowd",
      style: (h) => {
        const level = crowdLevels.indexOf(h.properties.level);
        if (level < 0) return { color: "#777", weight: 1, dashArray: "4 4", fillOpacity: 0.05, className: "crowd crowd-unknown" };
        return h.properties.stale ? { weight: 1, dashArray: "2 6", fillOpacity: 0.1, className: "crowd crowd-" + level + " crowd-stale" }
          : { weight: 1, fillOpacity: 0.3, className: "crowd crowd-" + level };
      },
      onEachFeature: (h, shape) => {
        const p = h.properties, minutes = Math.round((p.ageSeconds || 0) / 60);
        const when = p.at ? p.at.slice(0, 16).replace("T", " ") + " KST (" + minutes + "분 전, " + minutes + " min ago)" + (p.stale ? " · 오래됨 (stale)" : "") : "알 수 없음 (not known yet)";
        shape.bindTooltip("<b>" + text(p.place) + "</b><br>" + text(p.level || "–") + (p.min != null ? " · " + p.min + "–" + p.max + "명" : "") + "<br>" + text(when));
      },
    }).addTo(crowdLayer);
    const levels = {}, stale = [];
    for (const h of body.features) {
      levels[h.properties.code] = h.properties.level || null;
      if (h.properties.stale) stale.push(h.properties.code);
    }
    const asked = body.features.filter((h) => h.properties.lastAskedAt).map((h) => h.properties.code);
    document.body.dataset.crowd = JSON.stringify({ count: body.features.length, levels, stale, view, asked, again: !!again });
    // Hotspots in view the city was just asked about: their levels come within seconds.
    if (view && !again) crowdLookAgain = setTimeout(() => drawCrowd(true), 3000);
  } catch (error) {
    crowdAskedAt = 0;
    document.body.dataset.crowd = JSON.stringify({ error: error.message });
  }
}
let regionsAsked = 0, attributed = false, regionLabels = [];
// Names never overlap, nor sit under a cluster's ring: the larger region's name is shown,
// moved just below (or above) a ring that would cover it, and a smaller one's it would cover
// is hidden (세종 beside 충청남도, a town's beside its neighbour's at zoom 14).
function declutterLabels() {
  const overlapping = (r, s) => r.left < s.right && s.left < r.right && r.top < s.bottom && s.top < r.bottom;
  const rings = Array.from(document.querySelectorAll(".cluster-ring")).map((ring) => ring.getBoundingClientRect());
  const shown = [];
  for (const { label } of regionLabels.slice().sort((first, second) => second.size - first.size)) {
    const element = label.getElement();
    if (!element) continue;
    element.style.visibility = "";
    element.style.marginTop = "";
    let r = element.getBoundingClientRect();
    const ring = rings.find((s) => overlapping(r, s));
    if (ring) {
      for (const shift of [ring.bottom - r.top + 2, ring.top - r.bottom - 2]) {
        element.style.marginTop = shift + "px";
        r = element.getBoundingClientRect();
        if (!rings.some((s) => overlapping(r, s))) break;
      }
    }
    if (rings.some((s) => overlapping(r, s)) || shown.some((s) => overlapping(r, s))) element.style.visibility = "hidden";
    else shown.push(r);
  }
}
async function drawRegions(view) {
  if (settings.tiles || !settings.regions) return;
  const turn = ++regionsAsked, level = regionLevel(view.zoom), shade = document.getElementById("shade-regions").checked;
  try {
    const q = new URLSearchParams({ level, zoom: view.zoom, south: view.south, west: view.west, north: view.north, east: view.east });
    const response = await fetch("/v1/regions?" + q, { headers: { Accept: "application/geo+json" } });
    const body = await response.json();
    if (turn !== regionsAsked) return;
    regionLayer.clearLayers();
    if (!response.ok) { document.body.dataset.regions = JSON.stringify({ error: body.error ? body.error.message : String(response.status) }); return; }
    const most = Math.max(1, ...body.features.map((r) => r.properties.smoking + r.properties.nonsmoking));
    const placed = [];
    regionLabels = [];
    L.geoJSON(body, {
      pane: "regions", interactive: false,
      style: (r) => {
        const n = r.properties.smoking + r.properties.nonsmoking;
        // Shaded by how many areas a region publishes; one that publishes none stands out.
        const fill = !shade ? { fillOpacity: 0 } : n === 0 ? { fillColor: "#999", fillOpacity: 0.35 } : { fillColor: "#2166ac", fillOpacity: 0.08 + 0.5 * Math.log(1 + n) / Math.log(1 + most) };
        return Object.assign({ color: "#555", weight: level === "province" ? 1.5 : 1, opacity: 0.7, className: "region region-" + level }, fill);
      },
      // The name inside the region's largest part (`labelLat`, `labelLon`), not at its box's
      // middle, which may fall in the sea between a province and its island.
      onEachFeature: (r, shape) => {
        const p = r.properties, name = text(regionName(p)) + (shade ? " (" + (p.smoking + p.nonsmoking) + ")" : "");
        if (p.labelLat === undefined) return;
        const label = L.tooltip({ permanent: true, direction: "center", className: "region-label region-label-" + level, pane: "regions" })
          .setLatLng([p.labelLat, p.labelLon]).setContent(name).addTo(regionLayer);
        const b = shape.getBounds();
        regionLabels.push({ label, size: (b.getNorth() - b.getSouth()) * (b.getEast() - b.getWest()) });
        placed.push([regionName(p), label.getLatLng().lat, label.getLatLng().lng]);
      },
    }).addTo(regionLayer);
    declutterLabels();
    if (!attributed) { map.attributionControl.addAttribution("행정구역 경계: 국토지리정보원 (2023-09-15)"); attributed = true; }
    document.body.dataset.regions = JSON.stringify({ level, count: body.features.length, names: body.features.slice(0, 50).map((r) => regionName(r.properties)),
      labelsAt: placed.slice(0, 50) });
  } catch (error) {
    document.body.dataset.regions = JSON.stringify({ error: error.message });
  }
}
let asked = 0;
async function refresh() {
  const wanted = kind(), turn = ++asked;
  const b = map.getBounds(), zoom = map.getZoom();
  const view = { south: Math.max(-90, b.getSouth()), west: Math.max(-180, b.getWest()), north: Math.min(90, b.getNorth()), east: Math.min(180, b.getEast()), zoom };
  document.body.dataset.view = JSON.stringify(Object.assign({ kind: wanted }, view));
  drawRegions(view);
  drawCrowd();
  if (!wanted) { layer.clearLayers(); footprintLayer.clearLayers(); showVanished([]); document.body.dataset.shown = JSON.stringify({ clusters: 0, areas: 0, count: 0, footprints: 0, fresh: 0 }); status.textContent = "표시할 종류가 없습니다 (nothing to show)"; document.body.dataset.loaded = "1"; return; }
  try {
    const q = new URLSearchParams({ south: view.south, west: view.west, north: view.north, east: view.east, zoom, kind: wanted });
    const answer = await ask("/v1/clusters?" + q);
    if (turn !== asked) return;
    layer.clearLayers();
    footprintLayer.clearLayers();
    let footprints = 0;
    if (zoom >= 16) for (const a of answer.areas) if (drawFootprint(a)) footprints++;
    for (const c of apart(answer.clusters, 42)) {
      // A ring split by kind: its smoking share green, its non-smoking share red, as the areas
      // are drawn (never a colour for its size, which made zones look like smoking areas).
      const smokingShare = Math.round(100 * c.smoking / Math.max(1, c.count));
      const ring = c.smoking === 0 ? "var(--nonsmoking)" : c.nonsmoking === 0 ? "var(--smoking)"
        : "conic-gradient(var(--smoking) 0 " + smokingShare + "%, var(--nonsmoking) " + smokingShare + "% 100%)";
      const icon = L.divIcon({ html: "<div class=\"cluster-ring\" style=\"background: " + ring + "\" data-smoking=\"" + c.smoking + "\" data-nonsmoking=\"" + c.nonsmoking + "\"><span>" + c.count + "</span></div>",
                               className: "cluster-marker", iconSize: L.point(40, 40) });
      L.marker([c.lat, c.lon], { icon, keyboard: true, title: c.count + " areas (smoking " + c.smoking + ", non-smoking " + c.nonsmoking + ")" })
        .on("click", () => map.fitBounds([[c.south, c.west], [c.north, c.east]], { maxZoom: Math.min(map.getZoom() + 3, 18), padding: [20, 20] }))
        .addTo(layer);
    }
    const bySource = document.getElementById("by-source").checked;
    // Areas first seen in the last 30 days, ringed: news only after the first data the daemon
    // served (a fresh install's areas are all first seen at once, and none of them is new).
    const newSince = Math.max(Date.now() - 30 * 86400000, answer.firstServed ? Date.parse(answer.firstServed) : Infinity);
    const isNew = (a) => a.firstSeen && Date.parse(a.firstSeen) > newSince;
    let fresh = 0;
    for (const a of answer.areas) if (isNew(a)) {
      L.circleMarker([a.lat, a.lon], { radius: (touch ? 11 : 9) + 5, weight: 3, fill: false, interactive: false, className: "area-new" }).addTo(layer);
      fresh++;
    }
    if (touch) for (const a of answer.areas) {
      L.circleMarker([a.lat, a.lon], { radius: 22, stroke: false, fillOpacity: 0, className: "area-hit", bubblingMouseEvents: false })
        .on("click", () => details(a.id, [a.lat, a.lon])).addTo(layer);
    }
    for (const a of answer.areas) {
      // For operators: a colour per source, and positions found from an address dashed.
      const style = bySource ? { color: sourceColour(a.source), fillColor: sourceColour(a.source) } : {};
      if (a.geocoded) style.dashArray = "3 3";
      L.circleMarker([a.lat, a.lon], Object.assign({ radius: touch ? 11 : 9, weight: 2, fillOpacity: 0.8, className: "area-marker area-marker-" + a.kind + (a.geocoded ? " area-marker-geocoded" : ""), bubblingMouseEvents: false }, style))
        .bindTooltip(text(a.name)).on("click", () => details(a.id, [a.lat, a.lon])).addTo(layer);
    }
    showVanished(answer.vanished || []);
    declutterLabels();
    status.textContent = answer.count + "곳 (" + answer.clusters.length + " clusters, " + answer.areas.length + " areas)";
    document.body.dataset.shown = JSON.stringify({ clusters: answer.clusters.length, areas: answer.areas.length, count: answer.count, footprints, fresh });
  } catch (error) {
    status.textContent = "오류 (error): " + error.message;
  }
  document.body.dataset.loaded = "1";
}
// What the versions of the last 30 days removed from the view: a grey dashed ring where each
// was, and a list under the status line (empty and hidden when nothing went).
function showVanished(gone) {
  for (const v of gone) {
    L.circleMarker([v.lat, v.lon], { radius: 7, weight: 2, dashArray: "2 3", fill: false, className: "area-vanished", bubblingMouseEvents: false })
      .bindTooltip(text(v.name) + " (사라짐 · gone)").addTo(layer);
  }
  vanishedBox.hidden = gone.length === 0;
  vanishedBox.innerHTML = gone.length === 0 ? "" : "<p>최근 30일 사라진 곳 (gone in the last 30 days): " + gone.length + "</p><ul>"
    + gone.map((v) => "<li data-id=\"" + text(v.id) + "\">" + text(v.name) + " · " + kindText(v.kind) + " · " + text(v.lastSeen.slice(0, 10)) + "까지 (last seen)</li>").join("") + "</ul>";
  document.body.dataset.vanished = JSON.stringify(gone.map((v) => v.id));
}
// Clusters whose rings would overlap on screen (the daemon's cells are a fixed size, its
// clusters sit at their areas' centre) are drawn as one, where the larger is: their counts
// added, the ring by both one's kinds, the view a click opens their joint box. The largest are
// placed first, so no ring hides another's count.
function apart(clusters, pixels) {
  const drawn = [];
  for (const c of clusters.slice().sort((x, y) => y.count - x.count)) {
    const point = map.latLngToLayerPoint([c.lat, c.lon]);
    const near = drawn.find((d) => d.point.distanceTo(point) < pixels);
    if (!near) { drawn.push(Object.assign({ point }, c)); continue; }
    near.count += c.count; near.smoking += c.smoking; near.nonsmoking += c.nonsmoking;
    near.south = Math.min(near.south, c.south); near.west = Math.min(near.west, c.west);
    near.north = Math.max(near.north, c.north); near.east = Math.max(near.east, c.east);
  }
  return drawn;
}
async function details(id, at) {
  try {
    const a = (await ask("/v1/areas/" + encodeURIComponent(id))).areas[0];
    const lines = [
      "<h3>" + text(a.name) + "</h3>",
      "<p>" + kindText(a.kind) + "</p>",
      a.address ? "<p>" + text(a.address) + "</p>" : "",
      "<p>" + text([a.province, a.district].filter(Boolean).join(" ")) + "</p>",
      "<p>출처 (source): " + text((a.sources || [a.source]).join(", ")) + "</p>",
      a.referenceDate ? "<p>기준일 (as of): " + text(a.referenceDate) + "</p>" : "",
      a.firstSeen ? "<p>처음 본 날 (first seen): " + text(a.firstSeen.slice(0, 10)) + (a.changedAt ? " · 바뀐 날 (changed): " + text(a.changedAt.slice(0, 10)) : "") + "</p>" : "",
      a.crowd ? "<p>혼잡도 (crowd): " + text(a.crowd.place) + " " + text(a.crowd.level) + " · " + text(a.crowd.at.slice(0, 16).replace("T", " ")) + "</p>" : "",
      "<p>" + (a.geocoded ? "위치: 주소로 찾은 위치 (geocoded)" : "위치: 공개된 좌표 (published position)") + "</p>",
      a.overridden ? "<p>운영자 수정 (corrected): " + text(a.note || "") + "</p>" : "",
      // A record whose position lies outside the district it states: shown, and flagged.
      a.regionMismatch ? "<p class=\"flagged\">⚠ 확인 필요: 위치가 " + text(a.regionMismatch.stated) + " 밖" + (a.regionMismatch.found ? " (" + text(a.regionMismatch.found) + ")" : "")
        + "입니다 (flagged: the position lies " + Math.round(a.regionMismatch.meters) + " m outside " + text(a.regionMismatch.stated) + ", the district the record states"
        + (a.regionMismatch.found ? ", in " + text(a.regionMismatch.found) : ", in no district") + ")</p>" : "",
      "<p><small>" + text(a.id) + "</small></p>",
    ];
    L.popup({ className: "popup area-details" }).setLatLng(at).setContent(lines.join("")).openOn(map);
  } catch (error) { status.textContent = "오류 (error): " + error.message; }
}
// The daemon's compass points (`direction`) and distances as Korean sentences say them.
const compassKorean = { N: "북", NE: "북동", E: "동", SE: "남동", S: "남", SW: "남서", W: "서", NW: "북서" };
const distanceText = (m) => m < 1000 ? Math.round(m) + " m" : m < 10000 ? (Math.round(m / 100) / 10).toFixed(1) + " km" : Math.round(m / 1000) + " km";
// check at a point: its answer in Korean sentences, the daemon's English summary beside them,
// and the footprints of the zones the point is in.
async function check(at) {
  document.body.dataset.checked = JSON.stringify([at.lat, at.lng]);
  checkLayer.clearLayers();
  try {
    const c = await ask("/v1/check?lat=" + at.lat + "&lon=" + at.lng);
    let footprints = 0;
    for (const z of c.zones) if (drawFootprint(z, checkLayer)) footprints++;
    document.body.dataset.checkFootprints = String(footprints);
    const verdict = !c.inside ? "알려진 금연구역 밖입니다." : "이곳은 흡연할 수 없습니다: 금연구역 " + c.zones.length + "곳 안입니다.";
    const n = c.nearestSmoking;
    const nearest = !n ? "알려진 흡연구역이 없습니다."
      : n.distanceMeters < 1 ? "가장 가까운 흡연구역: 바로 이곳, " + text(n.name) + "."
      : "가장 가까운 흡연구역: " + (compassKorean[n.direction] || text(n.direction)) + "쪽 " + distanceText(n.distanceMeters) + ", " + text(n.name) + ".";
    const zones = c.zones.map((z) => "<li>" + text(z.name) + ": 벗어나려면 " + Math.ceil(z.edgeMeters) + " m</li>").join("");
    L.popup({ className: "popup check" }).setLatLng(at)
      .setContent("<p><strong>" + verdict + "</strong></p>" + (zones ? "<ul>" + zones + "</ul>" : "") + "<p>" + nearest + "</p>"
        + "<p lang=\"en\" class=\"english\">" + text(c.summary) + "</p>")
      .openOn(map);
  } catch (error) { status.textContent = "오류 (error): " + error.message; }
}
let routing = false, route = [];
async function along() {
  routeLayer.clearLayers();
  if (route.length === 0) { document.getElementById("route").innerHTML = ""; return; }
  L.polyline(route, { color: "#2166ac" }).addTo(routeLayer);
  if (route.length < 2) return;
  try {
    const path = route.map((p) => p.lat.toFixed(6) + "," + p.lng.toFixed(6)).join(";");
    document.body.dataset.route = JSON.stringify(path);
    const answer = await ask("/v1/along?meters=50&path=" + encodeURIComponent(path));
    document.getElementById("route").innerHTML = "<p>경로 주변 (along the route): " + answer.count + "</p><table>" +
      answer.areas.map((a) => "<tr data-kind=\"" + text(a.kind) + "\"><td>" + Math.round(a.alongMeters) + " m</td><td><i class=\"swatch swatch-" + text(a.kind) + "\"></i>"
        + (a.kind === "smoking" ? "흡연구역 (smoking)" : "금연구역 (non-smoking)") + "</td><td>" + text(a.name) + "</td></tr>").join("") + "</table>";
  } catch (error) { status.textContent = "오류 (error): " + error.message; }
}
map.on("click", (e) => { if (routing) { route.push(e.latlng); along(); } else { check(e.latlng); } });
map.on("moveend", refresh);
document.getElementById("show-smoking").addEventListener("change", refresh);
document.getElementById("show-nonsmoking").addEventListener("change", refresh);
document.getElementById("by-source").addEventListener("change", refresh);
document.getElementById("shade-regions").addEventListener("change", refresh);
document.getElementById("route-mode").addEventListener("click", (e) => {
  routing = !routing; e.target.setAttribute("aria-pressed", String(routing));
  if (!routing) { route = []; along(); }
});
document.getElementById("locate").addEventListener("click", () => {
  if (!navigator.geolocation) { status.textContent = "위치를 알 수 없습니다 (no position)"; return; }
  navigator.geolocation.getCurrentPosition((p) => {
    const at = L.latLng(p.coords.latitude, p.coords.longitude);
    hereLayer.clearLayers();
    L.circle(at, { radius: p.coords.accuracy, className: "position-accuracy", weight: 1, fillOpacity: 0.1, interactive: false }).addTo(hereLayer);
    L.circleMarker(at, { radius: 8, weight: 3, fillOpacity: 1, className: "you-are-here", pane: "here" }).bindTooltip("내 위치 (you are here)")
      .on("click", () => check(at)).addTo(hereLayer);
    document.body.dataset.located = JSON.stringify([at.lat, at.lng, p.coords.accuracy]);
    map.setView(at, 16);
    check(at);
  }, () => { status.textContent = "위치를 알 수 없습니다 (no position)"; });
});
// The search box: areas and places by name or address, the nearest first to the map's middle;
// choosing an area opens it, choosing a place moves there and lists what is near it.
const results = document.getElementById("results");
let searched = 0;
async function search(q) {
  const turn = ++searched;
  if (!q.trim()) { results.hidden = true; results.innerHTML = ""; return; }
  const c = map.getCenter();
  const query = new URLSearchParams({ q, lat: c.lat.toFixed(6), lon: c.lng.toFixed(6), limit: 8 });
  try {
    const answer = await ask("/v1/search?" + query);
    if (turn !== searched) return;
    // Each area with its district and its distance from the map's middle: booths of one name
    // and one address are told apart by where they are.
    const items = answer.areas.map((a) => ({ area: a, label: text(a.name), kind: kindText(a.kind),
      where: [a.district, a.distanceMeters === undefined ? null : distanceText(a.distanceMeters)].filter((x) => x).map(text).join(" · ") }))
      .concat(answer.places.map((p) => ({ place: p, label: text([p.province, p.district, p.name].filter((x, i, all) => x && all.indexOf(x) === i).join(" ")), kind: "지역 (place)" })));
    results.innerHTML = items.length ? "" : "<li class=\"near-heading\">찾은 것이 없습니다 (nothing found)</li>";
    for (const item of items) {
      const li = document.createElement("li");
      li.tabIndex = 0;
      li.className = item.area ? "result-area" : "result-place";
      li.innerHTML = item.label + (item.where ? "<span class=\"result-where\">" + item.where + "</span>" : "") + "<span class=\"result-kind\">" + item.kind + "</span>";
      const choose = () => choice(item);
      li.addEventListener("click", choose);
      li.addEventListener("keydown", (e) => { if (e.key === "Enter") choose(); });
      results.appendChild(li);
    }
    results.hidden = false;
    document.body.dataset.searched = JSON.stringify({ query: query.toString(), areas: answer.areas.map((a) => a.id), places: answer.places.map((p) => p.name) });
  } catch (error) {
    if (turn === searched) { results.hidden = false; results.innerHTML = "<li class=\"near-heading\">오류 (error): " + text(error.message) + "</li>"; }
  }
}
async function choice(item) {
  if (item.area) {
    const a = item.area;
    map.setView([a.lat, a.lon], Math.max(map.getZoom(), 17));
    details(a.id, [a.lat, a.lon]);
    document.body.dataset.chosen = JSON.stringify({ id: a.id });
    return;
  }
  const p = item.place;
  map.setView([p.lat, p.lon], p.district && p.name !== p.district ? 15 : p.district ? 13 : 10);
  try {
    const near = await ask("/v1/near?k=5&lat=" + p.lat + "&lon=" + p.lon);
    results.innerHTML = "<li class=\"near-heading\">" + text(p.name) + " 근처 (near " + text(p.name) + ")</li>" + near.areas.map((a) =>
      "<li class=\"result-near\" data-id=\"" + text(a.id) + "\">" + distanceText(a.distanceMeters) + " · " + text(a.name)
      + "<span class=\"result-kind\">" + kindText(a.kind) + "</span></li>").join("");
    for (const li of results.querySelectorAll(".result-near")) {
      const a = near.areas.find((x) => x.id === li.dataset.id);
      li.addEventListener("click", () => { map.setView([a.lat, a.lon], 17); details(a.id, [a.lat, a.lon]); });
    }
    document.body.dataset.chosen = JSON.stringify({ place: p.name, lat: p.lat, lon: p.lon, near: near.areas.map((a) => a.id) });
  } catch (error) { status.textContent = "오류 (error): " + error.message; }
}
let typing;
document.getElementById("search").addEventListener("input", (e) => { clearTimeout(typing); typing = setTimeout(() => search(e.target.value), 250); });
document.getElementById("search-form").addEventListener("submit", (e) => { e.preventDefault(); clearTimeout(typing); search(document.getElementById("search").value); });
document.getElementById("menu").addEventListener("click", (e) => {
  const open = document.getElementById("panel").classList.toggle("open");
  e.target.setAttribute("aria-expanded", String(open));
});
document.getElementById("show-sources").addEventListener("click", async (e) => {
  const box = document.getElementById("sources");
  box.hidden = !box.hidden; e.target.setAttribute("aria-expanded", String(!box.hidden));
  if (box.hidden) return;
  try {
    const s = await ask("/v1/sources");
    box.innerHTML = "<table><tr><th>출처</th><th>종류</th><th>곳</th><th>병합</th><th>기준일</th><th>상태</th></tr>" + s.sources.map((x) =>
      "<tr><td>" + text(x.name) + "</td><td>" + text(x.kind) + "</td><td>" + x.areas + "</td><td>" + x.merged + "</td><td>" +
      text(x.referenceDates ? x.referenceDates.newest : "-") + "</td><td>" + text(x.lastStatus || "-") + "</td></tr>").join("") + "</table>";
  } catch (error) { box.textContent = "오류 (error): " + error.message; }
});
refresh();
