import AreasKit
print("areasctl: not built yet")
