# Sourced by the kernel tests: Debian's arm64 cloud kernel of the current 6.1 ABI, fetched once into
# WORKDIR/debian (its -dbg package for the vmlinux with symbols, about 260 MB, and the image package for
# its /boot/config) and kept there. Adds the arm64 architecture to dpkg if needed.
#   debian_kernel WORKDIR   sets vmlinux, config, abi and version (the package's); returns 1, with the
#                           reason in skip_reason,
#                           when the arm64 archive cannot be reached.
#   debian_kernel_dep       sets dep, the current image package (linux-image-6.1.0-NN-cloud-arm64), and
#                           abi; returns 1 with skip_reason when the arm64 archive cannot be reached.
debian_kernel_dep() {
  local sudo=""
  skip_reason=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    $sudo dpkg --add-architecture arm64 || { skip_reason="cannot add the arm64 architecture to dpkg"; return 1; }
    $sudo apt-get update -qq >&2 || true
  fi
  # The metapackage names the current ABI: linux-image-6.1.0-NN-cloud-arm64.
  dep=$(apt-cache depends linux-image-cloud-arm64:arm64 2>/dev/null |
        sed -n 's/^ *Depends: \(linux-image-6\.1\.0-[0-9]*-cloud-arm64\)\(:arm64\)\?$/\1/p' | head -1)
  if [ -z "$dep" ]; then
    $sudo apt-get update -qq >&2 || true
    dep=$(apt-cache depends linux-image-cloud-arm64:arm64 2>/dev/null |
          sed -n 's/^ *Depends: \(linux-image-6\.1\.0-[0-9]*-cloud-arm64\)\(:arm64\)\?$/\1/p' | head -1)
  fi
  if [ -z "$dep" ]; then
    skip_reason="the arm64 package index has no linux-image-cloud-arm64 (is the arm64 archive reachable?)"
    return 1
  fi
  abi=${dep#linux-image-}
}

debian_kernel() {
  local dir=$1/debian pkg deb
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  debian_kernel_dep || return 1
  vmlinux=$dir/vmlinux-$abi
  config=$dir/config-$abi
  for pkg in "$dep-dbg" "$dep"; do
    case $pkg in *-dbg) [ -s "$vmlinux" ] && continue ;; *) [ -s "$config" ] && continue ;; esac
    echo "debian-kernel: downloading $pkg" >&2
    (cd "$dir" && rm -f "${pkg}"_*.deb && apt-get download -q "$pkg:arm64" >&2) ||
      { skip_reason="apt-get download $pkg:arm64 failed (is the arm64 archive reachable?)"; return 1; }
    deb=$(ls "$dir/${pkg}"_*_arm64.deb)
    case $pkg in
      *-dbg) dpkg-deb -f "$deb" Version > "$dir/version-$abi" &&
             dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/lib/debug/boot/vmlinux-$abi" > "$vmlinux.tmp" &&
             mv "$vmlinux.tmp" "$vmlinux" ;;
      *) dpkg-deb --fsys-tarfile "$deb" | tar -xO "./boot/config-$abi" > "$config.tmp" &&
         mv "$config.tmp" "$config" ;;
    esac
    rm -f "$deb"
  done
  version=$(cat "$dir/version-$abi")
}
