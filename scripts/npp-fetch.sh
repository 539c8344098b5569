#!/usr/bin/env bash
# NVIDIA's NPP flood fill and the CUDA runtime for rgx-cli bench's second
# baseline (docs/PERFORMANCE.md, "NPP as a second baseline"), fetched from
# PyPI and cut down to what the bench loads, for a machine with NVIDIA's
# driver but no network (the lent H100).
#
#   bash scripts/npp-fetch.sh DIR [ARCHS]
#
# DIR gets libnppc, libnppif (where nppiFloodFillRange_8u_C1IR_Ctx lives) and
# libcudart, plus VERSIONS.txt. libnppif carries its GPU code for every GPU
# generation (sm_50 to sm_121: 163 MB, 75 MB as .tar.xz), more than the lent
# machine's 64 MiB carry; ARCHS (default 90, the H100; e.g. 80,90; "all" keeps
# everything) says which generations keep their code: the others' code is
# overwritten with zeros, which leaves every offset and header as it was (the
# CUDA driver picks the code for its GPU by the headers) and compresses to
# nothing. Versions: RGX_NPP_WHEEL and RGX_CUDART_WHEEL (pip requirement
# texts), default the pair below.
set -euo pipefail

dir=${1:?usage: npp-fetch.sh DIR [ARCHS: 90 | 80,90 | all]}
archs=${2:-90}
npp_wheel=${RGX_NPP_WHEEL:-nvidia-npp-cu12==12.4.1.87}
cudart_wheel=${RGX_CUDART_WHEEL:-nvidia-cuda-runtime-cu12==12.9.79}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$dir"
echo "npp-fetch: downloading $npp_wheel and $cudart_wheel (about 290 MB)"
python3 -m pip download --quiet --no-deps --dest "$work/wheels" "$npp_wheel" "$cudart_wheel"

# Only the three libraries: libnppif needs libnppc (and libc's), and links
# the CUDA runtime statically; the bench itself calls libcudart.
python3 - "$work/wheels" "$dir" <<'EOF'
import pathlib, re, shutil, sys, zipfile
wheels, target = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
wanted = re.compile(r"/lib/(libnppc|libnppif|libcudart)\.so\.\d+$")
found = []
for wheel in sorted(wheels.glob("*.whl")):
    with zipfile.ZipFile(wheel) as archive:
        for name in archive.namelist():
            if wanted.search(name):
                with archive.open(name) as source, open(target / pathlib.Path(name).name, "wb") as out:
                    shutil.copyfileobj(source, out)
                found.append(pathlib.Path(name).name)
if len(found) != 3:
    sys.exit("npp-fetch: expected libnppc, libnppif and libcudart in the wheels, found %s" % found)
EOF

if [[ $archs != all ]]; then
    python3 - "$dir"/libnppif.so.* "$archs" <<'EOF'
# Zero the code of the GPU generations not asked for in the ELF section
# .nv_fatbin: a run of fat binaries (magic 0xBA55ED50, a 16-byte header with
# the size of its entries), each entry a header (kind, version, header size,
# padded payload size at byte 8, the sm version at byte 28) and its payload.
import struct, sys
path, keep = sys.argv[1], {int(a) for a in sys.argv[2].split(",")}
with open(path, "r+b") as f:
    data = bytearray(f.read())
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    names = sections[shstrndx][4]
    def name(section):
        start = names + section[0]
        return data[start:data.index(b"\0", start)].decode()
    fatbin = [s for s in sections if name(s) == ".nv_fatbin"]
    if not fatbin:
        sys.exit("npp-fetch: no .nv_fatbin section in " + path)
    position, end = fatbin[0][4], fatbin[0][4] + fatbin[0][5]
    kept = zeroed = 0
    archs_seen = set()
    while position + 16 <= end:
        magic, _, header, size = struct.unpack_from("<IHHQ", data, position)
        if magic != 0xBA55ED50:
            position += 8  # containers are 8-byte aligned; padding between them
            continue
        entry, last = position + header, position + header + size
        while entry < last:
            kind, _, entry_header, payload = struct.unpack_from("<HHIQ", data, entry)
            sm, = struct.unpack_from("<I", data, entry + 28)
            archs_seen.add(sm)
            start = entry + entry_header
            if sm in keep and kind == 2:  # kind 2: machine code (ELF); 1: PTX
                kept += payload
            else:
                data[start:start + payload] = bytes(payload)
                zeroed += payload
            entry = start + payload
        position = last
    if not keep & archs_seen:
        sys.exit("npp-fetch: %s has no code for sm %s (it has %s)" % (path, sorted(keep), sorted(archs_seen)))
    f.seek(0)
    f.write(data)
print("npp-fetch: libnppif: kept %.1f MB of GPU code for sm %s, zeroed %.1f MB (sm %s)"
      % (kept / 1e6, ",".join(map(str, sorted(keep))), zeroed / 1e6,
         ",".join(map(str, sorted(archs_seen - keep)))))
EOF
fi

{
    echo "$npp_wheel"
    echo "$cudart_wheel"
    echo "GPU code kept in libnppif: sm $archs"
} > "$dir/VERSIONS.txt"
nm -D --defined-only "$dir"/libnppif.so.* | grep ' nppiFloodFillRange_8u_C1IR_Ctx' >/dev/null ||
    { echo "npp-fetch: libnppif exports no nppiFloodFillRange_8u_C1IR_Ctx" >&2; exit 1; }
echo "npp-fetch: $(du -sh "$dir" | cut -f1) in $dir, $(tar -C "$dir" -cf - . | xz -T0 -3 | wc -c |
    awk '{printf "%.1f MiB", $1 / 1048576}') as .tar.xz:"
ls -l "$dir"
