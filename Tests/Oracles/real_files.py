"""What the real published files (Tests/RealData) should serve, counted here independently of
areasd: Python's own CSV reader and CP949 codec, and the identity rules written out afresh.

    python3 real_files.py yongsan-station LAT LON K FOLDER
        The K places nearest LAT, LON in the four files that list Yongsan's booths, each with
        the file rows that describe it: {"places": [{"lat", "lon", "text", "rows": {file: n}}]}.
        A booth is its position and the words that say where it is: the district files and the
        minjo12 merge name it by them; the vviyott merge names the building and puts those
        words in its address.
    python3 real_files.py standard-zones FILE
        The zones the national standard data states: one per name, position (1e-6 degrees,
        rounded half away from zero) and footprint (extent words, zone type, size, white space
        collapsed): {"rows": accepted rows, "zones": [[name, lat6, lon6, extent], ...]}.
"""
import csv
import io
import json
import math
import re
import sys

BOUNDS = (33.0, 124.0, 39.0, 132.0)


def read_csv(path):
    data = open(path, "rb").read()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("cp949")
    return list(csv.DictReader(io.StringIO(text)))


def decimal(text):
    text = text.strip()
    if not re.fullmatch(r"[+-]?(\d+\.?\d*|\.\d+)", text):
        return None
    return float(text)


def position(lat_text, lon_text):
    """A usable published position: both decimal, neither zero, in Korea (or swapped back)."""
    lat, lon = decimal(lat_text or ""), decimal(lon_text or "")
    if lat is None or lon is None or lat == 0 or lon == 0:
        return None
    south, west, north, east = BOUNDS
    if south <= lat <= north and west <= lon <= east:
        return lat, lon
    if south <= lon <= north and west <= lat <= east:
        return lon, lat
    return None


def micro(value):
    """Degrees to whole millionths, halves away from zero (as areasd's ids round)."""
    scaled = abs(value) * 1e6
    whole = math.floor(scaled)
    if scaled - whole >= 0.5:
        whole += 1
    return int(whole) if value >= 0 else -int(whole)


def collapse(text):
    return " ".join((text or "").split())


def where_words(text):
    """The words that place a booth, without the city and district and white space."""
    text = re.sub(r"^\s*(서울특별시|서울)\s+용산구\s+", "", text or "")
    return re.sub(r"\s+", "", text)


def meters(a, b):
    lat1, lon1, lat2, lon2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * 6371008.8 * math.asin(min(1.0, math.sqrt(h)))


def yongsan_station(lat, lon, k, folder):
    rows = []
    for row in json.load(open(folder + "/seoul-yongsan-odcloud/seoul-yongsan-odcloud.json", encoding="utf-8"))["data"]:
        rows.append(("odcloud", row["서울특별시 용산구 설치 위치"], row["위도"], row["경도"]))
    for row in read_csv(folder + "/seoul-yongsan-smoking-20240719.csv"):
        rows.append(("yongsan-2024", row["서울특별시 용산구 설치 위치"], row["위도"], row["경도"]))
    for row in read_csv(folder + "/seoul-merged-minjo12-smoking.csv"):
        rows.append(("minjo12", row["설치 위치"], row["위도"], row["경도"]))
    for row in read_csv(folder + "/seoul-merged-vviyott-smoking-areas.csv"):
        rows.append(("vviyott", row["주소"], row["위도"], row["경도"]))
    places = {}
    for file, words, lat_text, lon_text in rows:
        point = position(lat_text, lon_text)
        if point is None or not words.strip():
            continue
        key = (micro(point[0]), micro(point[1]), where_words(words))
        place = places.setdefault(key, {"lat": point[0], "lon": point[1], "text": where_words(words), "rows": {}})
        place["rows"][file] = place["rows"].get(file, 0) + 1
    here = (lat, lon)
    nearest = sorted(places.values(), key=lambda p: (meters(here, (p["lat"], p["lon"])), p["text"]))[:k]
    return {"places": nearest}


def standard_zones(path):
    accepted = 0
    zones = set()
    for row in read_csv(path):
        name = row["금연구역명"].strip()
        point = position(row["위도"], row["경도"])
        if not name or point is None:
            continue
        accepted += 1
        zones.add((name, micro(point[0]), micro(point[1]), collapse(row["금연구역범위상세"]),
                   collapse(row["금연구역구분"]), collapse(row["금연구역면적"])))
    return {"rows": accepted, "zones": sorted([z[0], z[1], z[2], z[3]] for z in zones)}


if __name__ == "__main__":
    command = sys.argv[1]
    if command == "yongsan-station":
        result = yongsan_station(float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), sys.argv[5])
    elif command == "standard-zones":
        result = standard_zones(sys.argv[2])
    else:
        sys.exit("unknown command " + command)
    json.dump(result, sys.stdout, ensure_ascii=False)
