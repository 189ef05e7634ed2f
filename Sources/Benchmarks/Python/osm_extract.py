"""Writing an extract of an OSM XML map as a datasets folder (`osm_crop.py`, `osm_paths.py`)."""
import hashlib, os
import xml.etree.ElementTree as ET


def write_extract(source, kind, root, nodes, ways, out, bounds=None):
    """Writes `<osm>` (with `root`'s attributes) holding `bounds`, then `nodes`, then `ways`, as
    OUT/maps/NAME_KIND.osm, and OUT/MANIFEST.csv naming it KIND-NAME; prints the path, size and sha256."""
    extract = ET.Element('osm', root.attrib)
    for element in ([bounds] if bounds is not None else []) + list(nodes) + list(ways):
        extract.append(element)
    place = os.path.splitext(os.path.basename(source))[0].split('_')[0]
    name = f'{place}_{kind}.osm'
    os.makedirs(os.path.join(out, 'maps'), exist_ok=True)
    path = os.path.join(out, 'maps', name)
    ET.ElementTree(extract).write(path, encoding='utf-8', xml_declaration=True)
    digest = hashlib.sha256(open(path, 'rb').read()).hexdigest()
    with open(os.path.join(out, 'MANIFEST.csv'), 'w') as f:
        f.write('name,file,format,core,rows,sha256,license,origin\n')
        f.write(f'{kind}-{place},maps/{name},osm-xml,routing,{len(ways)},{digest},"ODbL","{kind}"\n')
    print(path, os.path.getsize(path), digest)
