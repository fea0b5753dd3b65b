#!/bin/sh
# Build cairn's release archives into dist/: static binaries (CGO_ENABLED=0)
# for linux and darwin on amd64 and arm64, each in
# cairn_VERSION_OS_ARCH.tar.gz with README.md, and dist/checksums.txt
# (sha256). With goreleaser installed this runs it (a snapshot: nothing is
# published; .goreleaser.yaml); without it, or with --plain, the same
# builds run through plain go build.
#
#   scripts/release.sh [--plain]
#
# VERSION is the tag at HEAD (v1.2.0), else git describe's name, with
# "-dirty" when the tree has changes; cairn version reads the same from
# the binary's build information.
set -eu
cd "$(dirname "$0")/.."

if [ "${1:-}" != --plain ] && command -v goreleaser >/dev/null 2>&1; then
	exec goreleaser release --snapshot --clean
fi

version=$(git describe --tags --always --dirty 2>/dev/null || echo dev)
version=${version#v}
rm -rf dist
mkdir -p dist
for target in linux/amd64 linux/arm64 darwin/amd64 darwin/arm64; do
	os=${target%/*}
	arch=${target#*/}
	name=cairn_${version}_${os}_${arch}
	mkdir -p "dist/$name"
	# -buildvcs=true: stamp the commit even where GOFLAGS turns it off.
	CGO_ENABLED=0 GOOS=$os GOARCH=$arch go build -trimpath -buildvcs=true -ldflags='-s -w' \
		-o "dist/$name/cairn" ./cmd/cairn
	cp README.md "dist/$name/"
	tar -C dist -czf "dist/$name.tar.gz" "$name"
	rm -rf "dist/${name:?}"
done
cd dist
if command -v sha256sum >/dev/null 2>&1; then
	sha256sum ./*.tar.gz | sed 's# \./# #' >checksums.txt
else
	shasum -a 256 ./*.tar.gz | sed 's# \./# #' >checksums.txt
fi
cat checksums.txt
