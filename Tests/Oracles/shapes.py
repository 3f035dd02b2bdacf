"""shapely's answers about a GeoJSON file's polygons, for the shape engine's tests.

    python3 shapes.py make-valid FILE POINTS
        For each feature (by AREA_CD) and each point of POINTS (a JSON file of
        {"CODE": [[lon, lat], ...]}): whether make_valid(the feature's geometry) holds the point,
        and whether the point lies within 1e-7 degrees of its outline (where rounding decides):
        {"CODE": {"valid": bool, "area": m, "inside": [bool, ...], "nearEdge": [bool, ...]}}.
"""
import json
import sys

from shapely.geometry import Point, shape
from shapely.ops import unary_union
from shapely.validation import make_valid


def make_valid_answers(path, points_path):
    features = json.load(open(path, encoding="utf-8"))["features"]
    points = json.load(open(points_path, encoding="utf-8"))
    out = {}
    for feature in features:
        code = feature["properties"]["AREA_CD"]
        if code not in points or feature.get("geometry") is None:
            continue
        published = shape(feature["geometry"])
        # The area make_valid gives (a collection's lines, a spike's remains, hold nothing).
        parts = getattr(make_valid(published), "geoms", [make_valid(published)])
        repaired = unary_union([g for g in parts if g.geom_type in ("Polygon", "MultiPolygon")])
        outline = repaired.boundary
        inside, near = [], []
        for lon, lat in points[code]:
            p = Point(lon, lat)
            inside.append(bool(repaired.contains(p)))
            near.append(bool(outline.distance(p) < 1e-7))
        out[code] = {"valid": bool(published.is_valid), "area": repaired.area, "inside": inside, "nearEdge": near}
    return out


if __name__ == "__main__":
    if sys.argv[1] == "make-valid":
        json.dump(make_valid_answers(sys.argv[2], sys.argv[3]), sys.stdout)
    else:
        sys.exit("unknown command " + sys.argv[1])
