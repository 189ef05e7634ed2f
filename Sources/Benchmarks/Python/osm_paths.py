"""The path network of an OSM XML map, for `fieldtest-bench e2e --parts route --datasets OUT`.

Usage: python3 osm_paths.py MAP.osm OUT_FOLDER

Keeps what a routing graph is made of and drops the rest (buildings, land use, points of interest):
every way with a `highway` tag, whole, and the nodes those ways use, with their tags; the `bounds`
element is kept. The graph `fieldtest route` builds is the one it builds from MAP (the same ways and
nodes), in a smaller file: a campus extract is mostly paths, where a city centre's is mostly buildings.
Writes OUT_FOLDER/maps/NAME_paths.osm and OUT_FOLDER/MANIFEST.csv. Deterministic: the same map gives
the same bytes (helsinki_centre.osm gives 2,096,826 bytes: 2,650 ways, 7,738 nodes).
"""
import sys, xml.etree.ElementTree as ET

from osm_extract import write_extract

source, out = sys.argv[1], sys.argv[2]
root = ET.parse(source).getroot()
ways = [w for w in root.iter('way') if any(t.get('k') == 'highway' for t in w.iter('tag'))]
keep = set()
for w in ways:
    keep.update(nd.get('ref') for nd in w.iter('nd'))
bounds = next(root.iter('bounds'), None)
write_extract(source, 'paths', root, (n for n in root.iter('node') if n.get('id') in keep), ways, out, bounds)
