"""A campus-sized cut of a larger OSM XML map, for `fieldtest-bench e2e --parts route --datasets OUT`.

Usage: python3 osm_crop.py MAP.osm FRACTION OUT_FOLDER

Cuts MAP the way the OSM API's "map" call does: the nodes in a box centred on the median node, its
sides FRACTION of the span between the 2nd and 98th percentiles of latitude and of longitude; every
way with a node in the box, whole; and the nodes those ways use. Writes OUT_FOLDER/maps/NAME_crop.osm
and OUT_FOLDER/MANIFEST.csv. Deterministic: the same map and fraction give the same bytes
(helsinki_centre.osm at 0.8 gives 4,280,505 bytes, sha256 4a51f470…, about the size of the 4,000-node
campus the route goal was set on).
"""
import sys, xml.etree.ElementTree as ET

from osm_extract import write_extract

source, fraction, out = sys.argv[1], float(sys.argv[2]), sys.argv[3]
root = ET.parse(source).getroot()
nodes = {n.get('id'): n for n in root.iter('node')}
lats = sorted(float(n.get('lat')) for n in nodes.values())
lons = sorted(float(n.get('lon')) for n in nodes.values())
mid_lat, mid_lon = lats[len(lats) // 2], lons[len(lons) // 2]
half_lat = (lats[-len(lats) // 50] - lats[len(lats) // 50]) * fraction / 2
half_lon = (lons[-len(lons) // 50] - lons[len(lons) // 50]) * fraction / 2
inside = {i for i, n in nodes.items()
          if abs(float(n.get('lat')) - mid_lat) <= half_lat and abs(float(n.get('lon')) - mid_lon) <= half_lon}
ways = [w for w in root.iter('way') if any(nd.get('ref') in inside for nd in w.iter('nd'))]
keep = set(inside)
for w in ways:
    keep.update(nd.get('ref') for nd in w.iter('nd'))
bounds = ET.Element('bounds', minlat=f"{mid_lat - half_lat:.7f}", minlon=f"{mid_lon - half_lon:.7f}",
                    maxlat=f"{mid_lat + half_lat:.7f}", maxlon=f"{mid_lon + half_lon:.7f}")
write_extract(source, 'crop', root, (n for i, n in nodes.items() if i in keep), ways, out, bounds)
