#!/bin/sh
# build_rt_wasm.sh OUT — the shared runtime (src/rt: num.c, float.c, utf8.c, text.c, heap.c, coll.c,
# host.c's environment snapshot)
# compiled once for wasm32 with clang and linked with wasm-ld into OUT, the
# runtime module every Wasm program carries (src/emit_wasm/emit.c): it
# imports the program's memory and keeps to [0, 64 KiB) of it (data from
# 1,024, a 16 KiB stack).  $WASM_CC (default clang) and $WASM_LD (default
# wasm-ld); when either is missing OUT is empty and the Wasm lane reports
# SPX-W102.  These files are freestanding (memcpy/memmove/memset/memcmp
# from src/rt/wasm32 only; float.c's shortest float text is exact integer
# arithmetic); what needs more of libc stays out of this list: args.c
# (snprintf), fs.c (POSIX).
set -eu
out=$1
cc=${WASM_CC:-clang}
ld=${WASM_LD:-wasm-ld}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! command -v "$cc" >/dev/null 2>&1 || ! command -v "$ld" >/dev/null 2>&1; then
	echo "build_rt_wasm: $cc or $ld not found: semaprax is built without the Wasm runtime (SPX-W102)" >&2
	: > "$out"
	exit 0
fi
flags="--target=wasm32 -std=c11 -O2 -ffreestanding -nostdlib -fno-builtin -isystem src/rt/wasm32 -Wall -Wextra -Werror"
for f in src/rt/num.c src/rt/float.c src/rt/utf8.c src/rt/text.c src/rt/heap.c src/rt/coll.c src/rt/host.c src/rt/wasm32/shim.c; do
	"$cc" $flags -c -o "$tmp/$(basename "$f" .c).o" "$f"
done
"$ld" --no-entry --import-memory --strip-all --global-base=1024 -z stack-size=16384 \
	--export=rt_env_entry \
	--export=rt_decimal --export=rt_float_text --export=rt_parse_i64 --export=rt_utf8_count --export=rt_utf8_scalar --export=rt_utf8_validate --export=rt_find --export=rt_bytes_cmp --export=rt_trim --export=rt_char_literal --export=rt_slice_check --export=rt_i64_from_f64 --export=rt_heap_init --export=rt_free --export=rt_heap_live --export=rt_str_copy --export=rt_str_own --export=rt_str_append --export=rt_str_concat --export=rt_utf8_encode --export=rt_block_clone --export=rt_block_grow --export=rt_sort_slots --export=rt_vec_reserve_target --export=rt_fs_path_valid --export=rt_fs_root_line --export=rt_alloc --export=rt_zalloc --export=rt_bytes_write --export=rt_bytes_selector --export=rt_slot_find --export=rt_slots_open --export=rt_slots_close --export=rt_cell_alloc --export=__heap_base \
	-o "$tmp/rt.wasm" "$tmp"/*.o
mv "$tmp/rt.wasm" "$out"
