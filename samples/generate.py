#!/usr/bin/env python3
"""Writes the recorded pages under samples/ in the exact shapes of the two upstream services.

Deterministic (fixed seed): rerun to regenerate. The non-smoking zones carry the dirty records
real clients report: empty, zero, padded, swapped and truncated coordinates, and repeats.
"""
import json, os, random
from xml.sax.saxutils import escape

random.seed(20260630)
here = os.path.dirname(os.path.abspath(__file__))

# (province, district, latitude, longitude, managing agency)
districts = [
    ("서울특별시", "용산구", 37.5326, 126.9905), ("서울특별시", "종로구", 37.5735, 126.9790),
    ("서울특별시", "중구", 37.5641, 126.9979), ("서울특별시", "강남구", 37.5172, 127.0473),
    ("서울특별시", "마포구", 37.5663, 126.9019), ("서울특별시", "송파구", 37.5145, 127.1059),
    ("서울특별시", "영등포구", 37.5264, 126.8962), ("부산광역시", "해운대구", 35.1631, 129.1636),
    ("부산광역시", "부산진구", 35.1629, 129.0530), ("대구광역시", "중구", 35.8693, 128.6062),
    ("인천광역시", "남동구", 37.4473, 126.7315), ("광주광역시", "서구", 35.1520, 126.8895),
    ("대전광역시", "서구", 36.3554, 127.3838), ("울산광역시", "북구", 35.5826, 129.3613),
    ("경기도", "수원시", 37.2636, 127.0286), ("경기도", "안양시", 37.3943, 126.9568),
    ("경기도", "성남시", 37.4200, 127.1265), ("전라남도", "광양시", 34.9407, 127.6959),
    ("제주특별자치도", "제주시", 33.4996, 126.5312), ("강원특별자치도", "춘천시", 37.8813, 127.7298),
]
zone_types = [
    ("공공기관의청사", "건물 및 대지 전체", "주민센터"), ("어린이놀이시설", "놀이시설 경계 10m 이내", "어린이공원"),
    ("버스정류소", "정류소 경계 10m 이내", "버스정류장"), ("도시공원", "공원 전체", "근린공원"),
    ("학교절대정화구역", "학교 경계 50m 이내", "초등학교"), ("지하철역 출입구", "출입구 경계 10m 이내", "역 출입구"),
    ("의료기관", "건물 및 대지 전체", "의원"), ("음식점", "영업소 전체", "식당"),
]
roads = ["중앙로", "세종대로", "한강대로", "테헤란로", "시민로", "공원로", "역전로", "대학로", "문화로", "평화로"]


def zone(i):
    province, district, lat, lon = random.choice(districts)
    kind, scope, suffix = random.choice(zone_types)
    lat += random.gauss(0, 0.02)
    lon += random.gauss(0, 0.025)
    name = f"{district} {random.choice(roads)}{random.randint(1, 99)} {suffix}"
    return {
        "prhsmkNm": name,
        "prhsmkScopeDesc": scope,
        "ctprvnNm": province,
        "signguNm": district,
        "prhsmkSe": kind,
        "prhsmkAppnBasis": "국민건강증진법 제9조4항" if random.random() < 0.7 else f"{district} 간접흡연 피해방지 조례",
        "prhsmkAr": str(random.choice([random.randint(20, 20000), random.randint(20, 3000)])) if random.random() > 0.08 else "",
        "ffnlg": random.choice(["100000", "50000", "30000"]),
        "phoneNumber": f"0{random.randint(2, 64)}-{random.randint(200, 999)}-{random.randint(1000, 9999)}",
        "rdnmadr": f"{province} {district} {random.choice(roads)} {random.randint(1, 300)}",
        "lnmadr": "" if random.random() < 0.6 else f"{province} {district} {random.randint(1, 900)}-{random.randint(1, 30)}",
        "institutionNm": f"{district} 보건소",
        "latitude": f"{lat:.6f}",
        "longitude": f"{lon:.6f}",
        "referenceDate": "2026-06-30",
        "insttCode": str(3000000 + random.randint(0, 999999)),
    }


zones = [zone(i) for i in range(2750)]
# Dirty records, as clients report them.
dirty = [
    lambda z: z.update(latitude="", longitude=""),
    lambda z: z.update(latitude="0", longitude="0"),
    lambda z: z.update(latitude="  " + z["latitude"] + " ", longitude=" " + z["longitude"] + "  "),
    lambda z: z.update(latitude=z["longitude"], longitude=z["latitude"]),
    lambda z: z.update(latitude=z["latitude"][:1] + "." + z["latitude"][3:]),
    lambda z: z.update(latitude="N/A"),
    lambda z: z.update(prhsmkNm=" " + z["prhsmkNm"] + " "),
]
for n, i in enumerate(random.sample(range(len(zones)), 140)):
    dirty[n % len(dirty)](zones[i])
# Exact repeats of earlier rows.
for i in random.sample(range(100, len(zones)), 30):
    zones[i] = dict(zones[i - 100])

def xml_page(rows, page, size, total):
    items = "".join(
        "<item>" + "".join(f"<{k}>{escape(v)}</{k}>" for k, v in r.items()) + "</item>\n" for r in rows)
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<response>\n<header><resultCode>00</resultCode>'
            f"<resultMsg>NORMAL_SERVICE</resultMsg></header>\n<body>\n<items>\n{items}</items>\n"
            f"<numOfRows>{size}</numOfRows><pageNo>{page}</pageNo><totalCount>{total}</totalCount>\n</body>\n</response>\n")

out = os.path.join(here, "nonsmoking-zones")
os.makedirs(out, exist_ok=True)
size = 1000
for page in range(1, (len(zones) + size - 1) // size + 1):
    rows = zones[(page - 1) * size: page * size]
    with open(os.path.join(out, f"page-{page}.xml"), "w", encoding="utf-8") as f:
        f.write(xml_page(rows, page, size, len(zones)))


def smoking(columns, center, count, spread, name_of, numbers=False):
    rows = []
    for i in range(count):
        lat = center[0] + random.gauss(0, spread)
        lon = center[1] + random.gauss(0, spread * 1.2)
        row = name_of(i)
        if numbers and i % 3 == 0:
            row[columns[0]], row[columns[1]] = round(lat, 6), round(lon, 6)
        else:
            row[columns[0]], row[columns[1]] = f"{lat:.6f}", f"{lon:.6f}"
        rows.append(row)
    return rows


def odcloud_pages(directory, rows, per_page, overlap=0):
    path = os.path.join(here, directory)
    os.makedirs(path, exist_ok=True)
    pages = (len(rows) + per_page - 1) // per_page
    for page in range(1, pages + 1):
        start = max(0, (page - 1) * per_page - (overlap if page > 1 else 0))
        data = rows[start: page * per_page]
        body = {"page": page, "perPage": per_page, "totalCount": len(rows), "currentCount": len(data),
                "matchCount": len(rows), "data": data}
        with open(os.path.join(path, f"page-{page}.json"), "w", encoding="utf-8") as f:
            json.dump(body, f, ensure_ascii=False)


places = ["서울역 광장", "용산역 광장", "이태원역", "삼각지역", "효창공원앞역", "한강진역", "남영역", "녹사평역"]
yongsan = smoking(("위도", "경도"), (37.5326, 126.9780), 57, 0.012, lambda i: {
    "서울특별시 용산구 설치 위치": f"서울특별시 용산구 {places[i % len(places)]} {i % 12 + 1}번출구",
    "설치 주체": random.choice(["용산구청", "한국철도공사", "서울교통공사", "민간"]),
    "시설 구분": random.choice(["철도역", "지하철역", "공원", "상업시설"]),
    "시설형태": random.choice(["개방형", "폐쇄형", "부스형"]),
    "자치구명": "용산구",
})
odcloud_pages("yongsan-smoking", yongsan, 1000)

anyang = smoking(("위도", "경도"), (37.3943, 126.9568), 130, 0.02, lambda i: {
    "흡연구역명": f"안양 {random.choice(['시청', '범계역', '평촌역', '안양역', '중앙공원'])} 흡연구역 {i + 1}",
    "소재지도로명주소": f"경기도 안양시 동안구 {random.choice(roads)} {random.randint(1, 300)}",
    "관리기관": "안양시청",
}, numbers=True)
anyang[7]["위도"], anyang[7]["경도"] = "", ""
odcloud_pages("anyang-smoking", anyang, 50, overlap=5)

bukgu = smoking(("위도", "경도"), (35.5826, 129.3613), 24, 0.015, lambda i: {
    "상세위치": f"울산광역시 북구 {random.choice(['호계역', '농소운동장', '중산체육공원', '강동해변'])} 인근 {i + 1}",
    "설치주체": "북구청",
})
odcloud_pages("ulsan-bukgu-smoking", bukgu, 1000)
