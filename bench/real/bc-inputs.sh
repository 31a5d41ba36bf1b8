#!/bin/sh
# bc-inputs.sh DIR: the bc scripts of bench/results/real-programs.md.
#   n.bc    prints 3^3000 in hexadecimal (the normal run)
#   s.bc    prints 3^20000 in hexadecimal (the slow run)
#   n10.bc  prints 3^20000 in decimal (the other normal run)
d=${1:-.}
[ -d "$d" ] || { echo "bc-inputs.sh: $d: not a directory" >&2; exit 2; }
printf 'x=3^3000\nobase=16\nx\n' > "$d/n.bc"
printf 'x=3^20000\nobase=16\nx\n' > "$d/s.bc"
printf 'x=3^20000\nobase=10\nx\n' > "$d/n10.bc"
