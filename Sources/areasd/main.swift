import AreasKit
print("areasd: not built yet")
