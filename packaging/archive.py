#!/usr/bin/env python3
"""Writes one release archive of a folder, the same bytes on every run and every OS.

  archive.py tar.gz|zip <output file> <parent folder> <top folder name>

Entries are sorted, owned by 0:0, dated SOURCE_DATE_EPOCH (default 0), and keep only the
execute bit of their modes (0755 or 0644), so two builds of the same commit give the same
archive and its SHA-256 can be compared.  Python rather than tar/zip: GNU tar's options
for this do not exist in macOS's bsdtar, and Debian's base system has no zip.
"""
import gzip
import io
import os
import sys
import tarfile
import time
import zipfile


def entries(parent, top):
    """(relative path, absolute path) of the top folder and everything under it, sorted."""
    found = []
    for folder, dirs, files in os.walk(os.path.join(parent, top)):
        dirs.sort()
        rel = os.path.relpath(folder, parent)
        found.append((rel, folder))
        for name in sorted(files):
            found.append((os.path.join(rel, name), os.path.join(folder, name)))
    return found


def mode_of(path):
    if os.path.isdir(path):
        return 0o755
    return 0o755 if os.stat(path).st_mode & 0o111 else 0o644


def write_tar_gz(output, parent, top, epoch):
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for rel, path in entries(parent, top):
            info = tar.gettarinfo(path, arcname=rel.replace(os.sep, "/"))
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            info.mtime = epoch
            info.mode = mode_of(path)
            if info.isfile():
                with open(path, "rb") as f:
                    tar.addfile(info, f)
            else:
                tar.addfile(info)
    with open(output, "wb") as f:
        with gzip.GzipFile(filename="", mode="wb", fileobj=f, mtime=epoch, compresslevel=9) as gz:
            gz.write(raw.getvalue())


def write_zip(output, parent, top, epoch):
    stamp = time.gmtime(max(epoch, 315532800))[:6]  # zip dates start in 1980
    with zipfile.ZipFile(output, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for rel, path in entries(parent, top):
            name = rel.replace(os.sep, "/") + ("/" if os.path.isdir(path) else "")
            info = zipfile.ZipInfo(name, date_time=stamp)
            info.external_attr = (mode_of(path) | (0o040000 if os.path.isdir(path) else 0o100000)) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            if os.path.isdir(path):
                z.writestr(info, b"")
            else:
                with open(path, "rb") as f:
                    z.writestr(info, f.read())


def main(argv):
    if len(argv) != 5 or argv[1] not in ("tar.gz", "zip"):
        sys.exit("usage: archive.py tar.gz|zip <output> <parent folder> <top folder name>")
    _, kind, output, parent, top = argv
    if not os.path.isdir(os.path.join(parent, top)):
        sys.exit(f"archive.py: no folder {top} in {parent}")
    epoch = int(os.environ.get("SOURCE_DATE_EPOCH", "0"))
    (write_tar_gz if kind == "tar.gz" else write_zip)(output, parent, top, epoch)


if __name__ == "__main__":
    main(sys.argv)
