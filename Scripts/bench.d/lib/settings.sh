# shellcheck shell=bash
# Scripts/bench's settings: the sizes, lengths and counts of each section in --quick and full mode (sourced once the
# options are read).

PRESET=veryfast
FPS=30
GOP=$((2 * FPS)) # an IDR every 2 s
if ((QUICK)); then
  RUNS=${RUNS:-1}
  OUTPUT=${OUTPUT:-BENCHMARKS.quick.md}
  A_SIZE=640x360 A_SECONDS=2
  LADDER=(180p:320x180:300 360p:640x360:600) # name:WIDTHxHEIGHT:kbps
  VOD_LADDER_ARGS=(--ladder 180p:320x180@300k,360p:640x360@600k)
  D_SIZE=640x360 D_SECONDS=4
  E_SIZE=640x360 E_LENGTHS=(2 4 6)
  F_SIZE=640x360 F_SECONDS=2
  G_SIZE=640x360 G_SECONDS=2
  I_SIZE=640x360 I_SECONDS=2
  J_SIZE=640x360 J_SECONDS=1 J_JOBS=4 J_WORKERS=(1 2)
  K_SIZE=640x360 K_LENGTHS=(4 20) K_WORKERS=(1 2) K_SPLIT_ARGS=(--split-after 10 --chunk-seconds 6)
  C_MIB=64 L_CHUNK_MIB=16
  M_SIZE=640x360 M_SECONDS=2 M_CLIENTS=100
  P_SIZE=640x360 P_SECONDS=24 P_SPLIT_ARGS=(--split-after 10 --chunk-seconds 6) # split, as the full run's title is
  Q_SIZE=640x360 Q_SECONDS=2 Q_NATURAL=0 # the synthetic clips only
  H_ITEMS=1000 H_ITEMS_TEXT=1,000
  WRK_ARGS=(-t2 -c16 -d1s)
  READY_TIMEOUT=120
else
  RUNS=${RUNS:-3}
  OUTPUT=${OUTPUT:-BENCHMARKS.md}
  A_SIZE=3840x2160 A_SECONDS=10
  LADDER=(720p:1280x720:800 1080p:1920x1080:2800 4k:3840x2160:5000) # vod's default ladder
  VOD_LADDER_ARGS=()
  D_SIZE=1920x1080 D_SECONDS=60
  E_SIZE=1920x1080 E_LENGTHS=(10 30 90)
  F_SIZE=1920x1080 F_SECONDS=10
  G_SIZE=1920x1080 G_SECONDS=10
  I_SIZE=1920x1080 I_SECONDS=10
  J_SIZE=1280x720 J_SECONDS=4 J_JOBS=16 J_WORKERS=(1 2 4)
  K_SIZE=1280x720 K_LENGTHS=(60 300 1200) K_WORKERS=(1 2 4) K_SPLIT_ARGS=()
  C_MIB=2048 L_CHUNK_MIB=64
  M_SIZE=1280x720 M_SECONDS=10 M_CLIENTS=1000
  P_SIZE=1920x1080 P_SECONDS=180 P_SPLIT_ARGS=() # split at the defaults
  Q_SIZE=1920x1080 Q_SECONDS=10 Q_NATURAL=1 # with ../shared/media/natural/
  H_ITEMS=10000 H_ITEMS_TEXT=10,000
  WRK_ARGS=(-t2 -c32 -d10s)
  READY_TIMEOUT=900
fi
[[ -n ${BENCH_K_LENGTHS:-} ]] && read -ra K_LENGTHS <<<"$BENCH_K_LENGTHS"
[[ -n ${BENCH_K_WORKERS:-} ]] && read -ra K_WORKERS <<<"$BENCH_K_WORKERS"
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || { echo "Scripts/bench: --runs must be a positive integer" >&2; exit 2; }
[[ $OUTPUT == /* ]] || OUTPUT=$ROOT/$OUTPUT
