import AreasIngest
import AreasProtocol

/// `GET /map`: a page for people, on the distribution's Leaflet (served under `/map/` from
/// `http.assets`), asking only this daemon: clusters of the view (`/v1/clusters`), an area's
/// details (`/v1/areas/ID`), `check` where one clicks or stands, a route's areas (`along`) and
/// the sources report. No background tiles unless `http.tiles` names them.
enum MapPage {
    /// The page, with the tile settings in a JSON block it reads at start.
    static func html(http: HTTPConfig) -> [UInt8] {
        var settings = JSONWriter(capacity: 256)
        settings.beginObject()
        settings.key("tiles")
        if let tiles = http.tiles { settings.string(tiles) } else { settings.null() }
        settings.key("attribution")
        if let attribution = http.tilesAttribution { settings.string(attribution) } else { settings.null() }
        settings.endObject()
        // Inside a script element nothing may close it: "<" is written as its escape.
        let json = String(decoding: settings.bytes, as: UTF8.self).replacingOccurrences(of: "<", with: "\\u003c")
        return Array(template.replacingOccurrences(of: "@SETTINGS@", with: json).utf8)
    }

    static let template = #"""
    <!doctype html>
    <html lang="ko">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>areas: 흡연구역과 금연구역</title>
    <link rel="icon" href="data:,">
    <link rel="stylesheet" href="/map/leaflet/leaflet.css">
    <link rel="stylesheet" href="/map/leaflet/MarkerCluster.css">
    <link rel="stylesheet" href="/map/leaflet/MarkerCluster.Default.css">
    <style>
      html, body { margin: 0; height: 100%; font-family: "Noto Sans CJK KR", "Noto Sans KR", "Apple SD Gothic Neo", "Malgun Gothic", sans-serif; }
      #map { position: absolute; inset: 0; background: #dfe7ee; }
      #panel { position: absolute; top: 10px; right: 10px; z-index: 1000; background: #fff; padding: 8px 10px; border-radius: 6px;
               box-shadow: 0 1px 4px rgba(0,0,0,.3); max-width: min(92vw, 420px); max-height: 80vh; overflow: auto; font-size: 14px; }
      #panel label { display: block; margin: 2px 0; }
      #panel button { margin: 4px 4px 0 0; font: inherit; }
      #status { margin-top: 6px; color: #444; }
      #sources table, #route table { border-collapse: collapse; font-size: 12px; margin-top: 6px; }
      #sources td, #sources th, #route td { border-top: 1px solid #ddd; padding: 2px 4px; text-align: left; }
      .area-marker-smoking { stroke: #1b7837; fill: #5aae61; }
      .area-marker-nonsmoking { stroke: #b2182b; fill: #f4a582; }
      .popup h3 { margin: 0 0 4px; font-size: 15px; }
      .popup p { margin: 2px 0; }
      @media (max-width: 480px) { #panel { top: auto; bottom: 10px; right: 10px; left: 10px; max-width: none; max-height: 45vh; } }
    </style>
    </head>
    <body data-loaded="0">
    <div id="map" role="application" aria-label="흡연구역과 금연구역 지도"></div>
    <div id="panel">
      <label><input type="checkbox" id="show-smoking" checked> 흡연구역 (smoking areas)</label>
      <label><input type="checkbox" id="show-nonsmoking" checked> 금연구역 (non-smoking zones)</label>
      <label><input type="checkbox" id="by-source"> 출처별 색 (colour by source; geocoded dashed)</label>
      <button type="button" id="locate">내 위치 (where am I)</button>
      <button type="button" id="route-mode" aria-pressed="false">경로 (route)</button>
      <button type="button" id="show-sources" aria-expanded="false">출처 (sources)</button>
      <div id="status" aria-live="polite"></div>
      <div id="route"></div>
      <div id="sources" hidden></div>
    </div>
    <script type="application/json" id="settings">@SETTINGS@</script>
    <script src="/map/leaflet/leaflet.js"></script>
    <script>
    "use strict";
    const settings = JSON.parse(document.getElementById("settings").textContent);
    const params = new URLSearchParams(location.search);
    const map = L.map("map", { preferCanvas: false }).setView(
      [Number(params.get("lat") || 36.4), Number(params.get("lon") || 127.8)], Number(params.get("zoom") || 7));
    if (settings.tiles) L.tileLayer(settings.tiles, { attribution: settings.attribution || "", maxZoom: 19 }).addTo(map);
    const layer = L.layerGroup().addTo(map);
    const routeLayer = L.layerGroup().addTo(map);
    const status = document.getElementById("status");
    const text = (value) => String(value ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
    async function ask(path) {
      const response = await fetch(path, { headers: { Accept: "application/json" } });
      const body = await response.json();
      if (!body.ok) throw new Error(body.error ? body.error.message : "HTTP " + response.status);
      return body;
    }
    function kind() {
      const s = document.getElementById("show-smoking").checked, n = document.getElementById("show-nonsmoking").checked;
      return s && n ? "all" : s ? "smoking" : n ? "nonsmoking" : null;
    }
    function sourceColour(name) {
      let h = 0;
      for (const c of String(name)) h = (h * 31 + c.codePointAt(0)) % 360;
      return "hsl(" + h + ", 70%, 40%)";
    }
    let asked = 0;
    async function refresh() {
      const wanted = kind(), turn = ++asked;
      const b = map.getBounds(), zoom = map.getZoom();
      const view = { south: Math.max(-90, b.getSouth()), west: Math.max(-180, b.getWest()), north: Math.min(90, b.getNorth()), east: Math.min(180, b.getEast()), zoom };
      document.body.dataset.view = JSON.stringify(Object.assign({ kind: wanted }, view));
      if (!wanted) { layer.clearLayers(); document.body.dataset.shown = JSON.stringify({ clusters: 0, areas: 0, count: 0 }); status.textContent = "표시할 종류가 없습니다 (nothing to show)"; document.body.dataset.loaded = "1"; return; }
      try {
        const q = new URLSearchParams({ south: view.south, west: view.west, north: view.north, east: view.east, zoom, kind: wanted });
        const answer = await ask("/v1/clusters?" + q);
        if (turn !== asked) return;
        layer.clearLayers();
        for (const c of answer.clusters) {
          const size = c.count < 10 ? "small" : c.count < 100 ? "medium" : "large";
          const icon = L.divIcon({ html: "<div><span>" + c.count + "</span></div>", className: "marker-cluster marker-cluster-" + size + " cluster-marker", iconSize: L.point(40, 40) });
          L.marker([c.lat, c.lon], { icon, keyboard: true, title: c.count + " areas (smoking " + c.smoking + ", non-smoking " + c.nonsmoking + ")" })
            .on("click", () => map.fitBounds([[c.south, c.west], [c.north, c.east]], { maxZoom: Math.min(map.getZoom() + 3, 18), padding: [20, 20] }))
            .addTo(layer);
        }
        const bySource = document.getElementById("by-source").checked;
        for (const a of answer.areas) {
          // For operators: a colour per source, and positions found from an address dashed.
          const style = bySource ? { color: sourceColour(a.source), fillColor: sourceColour(a.source) } : {};
          if (a.geocoded) style.dashArray = "3 3";
          L.circleMarker([a.lat, a.lon], Object.assign({ radius: 7, weight: 2, fillOpacity: 0.8, className: "area-marker area-marker-" + a.kind + (a.geocoded ? " area-marker-geocoded" : ""), bubblingMouseEvents: false }, style))
            .bindTooltip(text(a.name)).on("click", () => details(a.id, [a.lat, a.lon])).addTo(layer);
        }
        status.textContent = answer.count + "곳 (" + answer.clusters.length + " clusters, " + answer.areas.length + " areas)";
        document.body.dataset.shown = JSON.stringify({ clusters: answer.clusters.length, areas: answer.areas.length, count: answer.count });
      } catch (error) {
        status.textContent = "오류 (error): " + error.message;
      }
      document.body.dataset.loaded = "1";
    }
    async function details(id, at) {
      try {
        const a = (await ask("/v1/areas/" + encodeURIComponent(id))).areas[0];
        const lines = [
          "<h3>" + text(a.name) + "</h3>",
          "<p>" + (a.kind === "smoking" ? "흡연구역 (smoking area)" : "금연구역 (non-smoking zone)") + "</p>",
          a.address ? "<p>" + text(a.address) + "</p>" : "",
          "<p>" + text([a.province, a.district].filter(Boolean).join(" ")) + "</p>",
          "<p>출처 (source): " + text((a.sources || [a.source]).join(", ")) + "</p>",
          a.referenceDate ? "<p>기준일 (as of): " + text(a.referenceDate) + "</p>" : "",
          "<p>" + (a.geocoded ? "위치: 주소로 찾은 위치 (geocoded)" : "위치: 공개된 좌표 (published position)") + "</p>",
          a.overridden ? "<p>운영자 수정 (corrected): " + text(a.note || "") + "</p>" : "",
          "<p><small>" + text(a.id) + "</small></p>",
        ];
        L.popup({ className: "popup area-details" }).setLatLng(at).setContent(lines.join("")).openOn(map);
      } catch (error) { status.textContent = "오류 (error): " + error.message; }
    }
    async function check(at) {
      document.body.dataset.checked = JSON.stringify([at.lat, at.lng]);
      try {
        const c = await ask("/v1/check?lat=" + at.lat + "&lon=" + at.lng);
        const near = c.nearestSmoking ? "<p>가장 가까운 흡연구역 (nearest smoking area): " + text(c.nearestSmoking.name) + ", " + Math.round(c.nearestSmoking.distanceMeters) + " m " + text(c.nearestSmoking.direction) + "</p>" : "";
        const zones = c.zones.map((z) => "<li>" + text(z.name) + "</li>").join("");
        L.popup({ className: "popup check" }).setLatLng(at)
          .setContent("<p><strong>" + (c.inside ? "흡연 불가 (no smoking here)" : "금연구역 밖 (outside every zone)") + "</strong></p><p>" + text(c.summary) + "</p>" + (zones ? "<ul>" + zones + "</ul>" : "") + near)
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
        const answer = await ask("/v1/along?meters=50&path=" + encodeURIComponent(path));
        document.getElementById("route").innerHTML = "<p>경로 주변 (along the route): " + answer.count + "</p><table>" +
          answer.areas.map((a) => "<tr><td>" + Math.round(a.alongMeters) + " m</td><td>" + text(a.name) + "</td></tr>").join("") + "</table>";
      } catch (error) { status.textContent = "오류 (error): " + error.message; }
    }
    map.on("click", (e) => { if (routing) { route.push(e.latlng); along(); } else { check(e.latlng); } });
    map.on("moveend", refresh);
    document.getElementById("show-smoking").addEventListener("change", refresh);
    document.getElementById("show-nonsmoking").addEventListener("change", refresh);
    document.getElementById("by-source").addEventListener("change", refresh);
    document.getElementById("route-mode").addEventListener("click", (e) => {
      routing = !routing; e.target.setAttribute("aria-pressed", String(routing));
      if (!routing) { route = []; along(); }
    });
    document.getElementById("locate").addEventListener("click", () => {
      if (!navigator.geolocation) { status.textContent = "위치를 알 수 없습니다 (no position)"; return; }
      navigator.geolocation.getCurrentPosition((p) => { const at = L.latLng(p.coords.latitude, p.coords.longitude); map.setView(at, 16); check(at); },
        () => { status.textContent = "위치를 알 수 없습니다 (no position)"; });
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
    </script>
    </body>
    </html>
    """#
}
