#!/usr/bin/env bash
# opencl_backend.sh SPHERO SOFT_SCENE RIGID_SCENE WORKDIR: a soft run
# stepped on the OpenCL device (PoCL where no GPU is installed) writes the
# same energy.csv, frames and checkpoints, byte for byte, as on the CPU; so
# does one with the Gear integrator, whose contacts alone go to the device;
# a run continued on the device from the CPU's checkpoint at T ends where
# the CPU's straight run does; a run gone unstable stops as on the CPU; and
# the key's errors name it.
set -euo pipefail
sphero=$1; soft=$2; rigid=$3; work=$4
rm -rf "$work"; mkdir -p "$work"
"$sphero" run "$soft" --quiet --output "$work/cpu" > /dev/null
"$sphero" run "$soft" --output "$work/opencl" --backend opencl > "$work/opencl.txt"
grep -q "backend: bodies, neighbour lists, contacts and integration on OpenCL device '" "$work/opencl.txt"
cmp "$work/cpu/energy.csv" "$work/opencl/energy.csv"
"$(dirname "$0")/same_state.sh" "$work/cpu/final.ckpt" "$work/opencl/final.ckpt"
frames=0
for frame in "$work/cpu"/*.vtu; do
  cmp "$frame" "$work/opencl/$(basename "$frame")"
  frames=$((frames + 1))
done
test "$frames" -gt 10
# Gear: the contacts on the device, the integration on the CPU.
"$sphero" run "$soft" --quiet --output "$work/gear-cpu" --integrator gear --duration 0.1 > /dev/null
"$sphero" run "$soft" --output "$work/gear-opencl" --integrator gear --duration 0.1 --backend opencl > "$work/gear.txt"
grep -q "backend: contacts on OpenCL device '.*the integration on the CPU (the device does not yet step the Gear integrator)" "$work/gear.txt"
cmp "$work/gear-cpu/energy.csv" "$work/gear-opencl/energy.csv"
"$(dirname "$0")/same_state.sh" "$work/gear-cpu/final.ckpt" "$work/gear-opencl/final.ckpt"
# Half on the CPU, the rest on the device from its checkpoint.
"$sphero" run "$soft" --quiet --output "$work/split" --duration 0.25 > /dev/null
"$sphero" run "$soft" --quiet --output "$work/split" --restart "$work/split/final.ckpt" --backend opencl > /dev/null
"$(dirname "$0")/same_state.sh" "$work/cpu/final.ckpt" "$work/split/final.ckpt"
# A run gone unstable stops with the CPU's message, and leaves its files.
for backend in cpu opencl; do
  status=0
  "$sphero" run --quiet --output "$work/unstable-$backend" --dt 0.003 --allow_large_time_step true --backend "$backend" \
    > /dev/null 2> "$work/unstable-$backend.err" || status=$?
  test "$status" -eq 3
done
cmp "$work/unstable-cpu.err" <(sed "s/unstable-opencl/unstable-cpu/" "$work/unstable-opencl.err")
for f in "$work/unstable-cpu"/*; do "$(dirname "$0")/same_state.sh" "$f" "$work/unstable-opencl/$(basename "$f")"; done
# Errors.
if "$sphero" run "$rigid" --check --backend opencl 2> "$work/rigid.txt"; then exit 1; fi
grep -q "backend: the OpenCL backend runs the soft model only" "$work/rigid.txt"
if "$sphero" run "$soft" --check --backend gpu 2> "$work/word.txt"; then exit 1; fi
grep -q "backend: expected cpu or opencl, found 'gpu'" "$work/word.txt"
if OPENCL_DEVICE=no-such-device "$sphero" run "$soft" --check --backend opencl 2> "$work/device.txt"; then exit 1; fi
grep -q "backend = opencl: no OpenCL device with double precision matches OPENCL_PLATFORM='' and OPENCL_DEVICE='no-such-device'" "$work/device.txt"
grep -q "the devices are:" "$work/device.txt"
# The listing is one line: no escaped line breaks. An index past any int is
# no device (not a C++ conversion's text); leading zeros still name one.
if grep -qF '\x0A' "$work/device.txt"; then echo "the device listing holds escaped line breaks"; exit 1; fi
if OPENCL_PLATFORM=99999999999999999999 "$sphero" run "$soft" --check --backend opencl 2> "$work/huge.txt"; then exit 1; fi
grep -q "matches OPENCL_PLATFORM='99999999999999999999' and OPENCL_DEVICE=''" "$work/huge.txt"
if grep -qE 'stoi|std::' "$work/huge.txt"; then echo "a C++ internal in the message"; exit 1; fi
OPENCL_PLATFORM=000 OPENCL_DEVICE=00 "$sphero" run "$soft" --check --backend opencl > /dev/null
echo "opencl backend: the same energy.csv, $frames frames and checkpoints as the CPU; a restart across backends is exact"
