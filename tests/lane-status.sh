# lane-status.sh — the one mapping table from the interpreter's status lines
# to the native lane's exit status and first stderr line (TOOLCHAIN.md §1.3),
# sourced by tests/native-test.sh and tests/random-test.sh.
#
# expected_native INTERP_STDERR_FIRST_LINE → prints "STATUS|LINE-PREFIX" (empty: unmapped)
expected_native() {
	case $1 in
	"single-file execution exceeded the 256-frame call-depth limit")
		echo "73|SEMAPRAX runtime failure: call depth exceeded (256 frames)"
		return ;;
	"error[SPX-F116]: command-line program \`main\` returned "*)
		v=${1#*returned }
		echo "72|SEMAPRAX runtime failure: \`main\` returned ${v%%,*}, outside the exit status range 0..=255"
		return ;;
	"single-file execution failed with language status "*) ;;
	*) echo ""; return ;;
	esac
	# the status as "<domain> <code>", from either rendering
	dc=$(printf '%s\n' "$1" | sed -n \
		-e 's/.*language status semaprax\.status\.v1\/\([^/]*\)\/\([0-9]*\) .*/\1 \2/p' \
		-e 's/.*"domain_id":"\([^"]*\)","code":\([0-9]*\),.*/\1 \2/p')
	case $dc in
	"semaprax.arithmetic.v1 1") echo "71|SEMAPRAX checked arithmetic failure: addition overflow" ;;
	"semaprax.arithmetic.v1 2") echo "71|SEMAPRAX checked arithmetic failure: subtraction overflow" ;;
	"semaprax.arithmetic.v1 3") echo "71|SEMAPRAX checked arithmetic failure: multiplication overflow" ;;
	"semaprax.arithmetic.v1 4" | "semaprax.arithmetic.v1 5") echo "71|SEMAPRAX checked arithmetic failure: invalid division" ;;
	"semaprax.arithmetic.v1 6" | "semaprax.arithmetic.v1 7") echo "71|SEMAPRAX checked arithmetic failure: invalid remainder" ;;
	"semaprax.arithmetic.v1 8") echo "71|SEMAPRAX checked arithmetic failure: negation overflow" ;;
	"semaprax.contract.v1 1") echo "70|SEMAPRAX contract failure: requires in " ;;
	"semaprax.contract.v1 2") echo "70|SEMAPRAX contract failure: ensures in " ;;
	"") echo "" ;;
	*) echo "73|SEMAPRAX operation failure: ${dc% *}/${dc#* }" ;;
	esac
}
